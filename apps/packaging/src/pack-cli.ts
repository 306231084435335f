/**
 * `pnpm pack:all`: packs every published package into `packs/` at the repository root and prints,
 * for each, the npm command that installs it (with the @avatar-drive packages it depends on)
 * into another project, until the packages are on the npm registry.
 */
import { join, relative } from 'node:path';
import { installClosure, packPackages, publishedPackages, REPO_ROOT, tarballName } from './pack.js';

const destination = join(REPO_ROOT, 'packs');
const all = publishedPackages();
const tarballs = await packPackages(destination, undefined, all);
console.log(`Packed ${tarballs.size} packages into ${relative(process.cwd(), destination) || '.'}/:`);
for (const name of [...tarballs.keys()].sort()) {
  const files = installClosure([name], all).map((dep) => {
    const pkg = all.get(dep)!;
    return join(destination, tarballName(pkg.name, pkg.version));
  });
  console.log(`\n  ${name}\n    npm install ${files.join(' ')}`);
}
