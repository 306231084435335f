/**
 * POST /v1/console/avatars: uploads one of the app's own avatars (API key only). The body is the
 * file itself, read by this plugin's own content-type parser and counted as it arrives.
 */
import { Transform } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import { cleanName } from '../avatars/avatar-uploads.js';
import { fileProblem } from '../avatars/file-problem.js';
import { httpError } from '../errors.js';
import { apiKeyHeaders, requireApiKey } from './api-key-auth.js';
import { type AvatarRouteDeps, publicOrigin } from './avatar-access.js';
import { servedManifest } from './avatar-manifest.js';
import { withStore } from './store-errors.js';

/** Content types an upload may be sent as (the bytes of a .glb or .vrm file, or a LAM avatar .zip). */
const UPLOAD_TYPES = ['model/gltf-binary', 'model/vrm', 'application/zip', 'application/octet-stream'];

export const avatarUploadRoute: FastifyPluginAsync<AvatarRouteDeps> = async (app, deps) => {
  const { maxBytes } = deps.uploads.limits;
  // The upload body is the file itself; only this route (this plugin's scope) reads these types.
  app.addContentTypeParser(
    UPLOAD_TYPES,
    { parseAs: 'buffer', bodyLimit: maxBytes + 1 },
    (_request, body, done) => done(null, body),
  );
  app.post(
    '/v1/console/avatars',
    {
      bodyLimit: maxBytes + 1,
      schema: {
        summary: "Upload one of the app's own avatars (.glb, .vrm, or a LAM Gaussian-splat .zip)",
        description:
          'The body is the file (Content-Type: model/gltf-binary; application/zip for a LAM "arkitWithBSData" zip, ' +
          'whose archive, offset.ply, vertex_order.json and counts are checked, then its skin.glb like any GLB). It is checked (GLB structure, sizes, ' +
          'URIs, VRM extension), validated with the Khronos glTF validator, stored by its SHA-256 and ' +
          "recorded for this app in the region's shared store. The answer carries the avatar's manifest " +
          'and its full coverage report. Refusals: 413 avatarTooLarge, 422 avatarInvalid ' +
          '(the detail says what to fix; `problem` in the error names the kind), 409 when the app has too many avatars.',
        tags: ['avatars'],
        security: [{ apiKey: [] }],
        headers: apiKeyHeaders,
        querystring: {
          type: 'object',
          properties: {
            name: {
              type: 'string',
              minLength: 1,
              maxLength: 100,
              description: 'Display name (default: the VRM title, else "Uploaded avatar").',
            },
          },
          additionalProperties: false,
        },
        // The bytes are checked by the upload pipeline, not by JSON schema: the schemas only
        // document the content types (an untyped schema accepts the Buffer the parser makes).
        body: {
          content: Object.fromEntries(
            UPLOAD_TYPES.map((type) => [
              type,
              { schema: { description: 'The .glb or .vrm file, or the LAM avatar .zip (binary).' } },
            ]),
          ),
        },
        response: {
          201: {
            type: 'object',
            required: ['avatar', 'coverage', 'validation'],
            properties: {
              avatar: { $ref: 'AvatarManifest#' },
              coverage: {
                type: 'object',
                additionalProperties: true,
                description: "@avatar-drive/core's AvatarCoverage of the file.",
              },
              validation: {
                type: 'object',
                properties: {
                  validatorVersion: { type: 'string' },
                  warnings: { type: 'integer' },
                  warningIssues: {
                    type: 'array',
                    items: {
                      type: 'object',
                      properties: {
                        code: { type: 'string' },
                        message: { type: 'string' },
                        pointer: { type: 'string' },
                      },
                    },
                  },
                },
              },
            },
          },
          '4xx': { $ref: 'ErrorBody#' },
          '5xx': { $ref: 'ErrorBody#' },
        },
      },
      onRequest: async (request) => {
        const type = String(request.headers['content-type'] ?? '')
          .split(';')[0]!
          .trim()
          .toLowerCase();
        if (!UPLOAD_TYPES.includes(type)) {
          throw httpError(
            415,
            'invalidRequest',
            'Send the .glb/.vrm file (or LAM .zip) itself as the body with Content-Type: model/gltf-binary or application/zip (curl: --data-binary @avatar.vrm -H "Content-Type: model/gltf-binary").',
          );
        }
        const declared = Number(request.headers['content-length']);
        if (declared > maxBytes) throw tooLarge(maxBytes, `${declared} bytes`);
      },
      // A body without Content-Length (chunked) is counted as it arrives and cut off at the limit.
      preParsing: async (_request, _reply, payload) => payload.pipe(byteLimit(maxBytes)),
      preHandler: requireApiKey(deps.apps),
    },
    async (request, reply) => {
      const { appId } = request.apiKeyApp!;
      const { name } = request.query as { name?: string };
      const body = request.body as Buffer;
      const result = await withStore('store the avatar', () =>
        deps.uploads.upload(appId, body, name === undefined ? undefined : cleanName(name) || undefined),
      );
      reply.code(201).header('cache-control', 'no-store');
      return {
        avatar: servedManifest(deps.directory.uploadView(result.record), publicOrigin(request, deps)),
        coverage: result.coverage,
        validation: {
          validatorVersion: result.validation.validatorVersion,
          warnings: result.validation.warnings,
          warningIssues: result.validation.warningIssues,
        },
      };
    },
  );
};

function tooLarge(max: number, got: string) {
  return fileProblem(
    'tooLarge',
    `The upload is ${got}; this service accepts avatars up to ${max} bytes. Reduce textures or polygons and upload again.`,
  );
}

/** Passes bytes through until more than `max` arrived, then fails with avatarTooLarge. */
function byteLimit(max: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > max) callback(tooLarge(max, `over ${max} bytes`));
      else callback(null, chunk);
    },
  });
}
