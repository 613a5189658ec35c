// Set by the bundler from package.json; the fallback is for code run straight from src/.
declare const __SVC_VERSION__: string | undefined;

export const VERSION: string = typeof __SVC_VERSION__ === 'string' ? __SVC_VERSION__ : '0.0.0-dev';

/** The User-Agent of every request svc sends: to the service and to svc mock's admin routes. */
export const USER_AGENT = `svc/${VERSION} node/${process.versions.node}`;
