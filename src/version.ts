// Set by the bundler from package.json; the fallback is for code run straight from src/.
declare const __SVC_VERSION__: string | undefined;

export const VERSION: string = typeof __SVC_VERSION__ === 'string' ? __SVC_VERSION__ : '0.0.0-dev';
