// The values a completion asks `svc __complete` for while the user types: the ones that live on
// this machine (the config file, the reply cache), never the network. Shared by the scripts'
// generator and the fast entry point, so it imports nothing.

export const DYNAMIC_SOURCES = {
  profiles: 'profile names of the config file',
  'data-selectors': 'series selectors of a data family, from cached `svc data latest|keys` replies',
  scenarios: 'sandbox scenario names, from a cached `svc sandbox scenarios` reply',
} as const;

export type DynamicSource = keyof typeof DYNAMIC_SOURCES;

export function isDynamicSource(name: string | undefined): name is DynamicSource {
  return name !== undefined && Object.hasOwn(DYNAMIC_SOURCES, name);
}
