import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.js';
import { loadConfig, pickAvatar } from './config.js';

// Strict mode (React's double mount in development) unless ?strict=0.
const config = await loadConfig();
const avatarId = await pickAvatar(config);
const app = <App config={config} avatarId={avatarId} />;
createRoot(document.getElementById('root')!).render(
  new URLSearchParams(location.search).get('strict') === '0' ? app : <StrictMode>{app}</StrictMode>,
);
