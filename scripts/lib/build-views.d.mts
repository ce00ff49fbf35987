// Types of build-views.mjs, for the TypeScript suites that bundle an app's views as `npm run build` does.
export declare function viewSources(root: string, projectRoot: string): { name: string; dir: string }[];
export declare function buildViews(root: string, projectRoot: string, outDir: string): Promise<string[]>;
