// Public API of service-page/ (named exports only).
export {};
