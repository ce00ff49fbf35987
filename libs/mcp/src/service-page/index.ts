// Public API of service-page/ (named exports only). Nothing beyond the `servicePage` option
// (McpModuleOptions) is public: the page, its paths and its renderer are internal.
export {};
