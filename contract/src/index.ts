export * from './auth.js';
export * from './billing.js';
export * from './errors.js';
export * from './health.js';
export * from './modules.js';
