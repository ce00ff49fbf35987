export { startAppsHostServers, type AppsHostServers } from './apps-host.server';
export { HostedView, type CspViolation, type OpenOptions } from './hosted-view';
export { bundleView } from './bundle-view';
export type { HostEvent, OpenedView } from './apps-host.types';
