export * from './admin.js';
export * from './auth.js';
export * from './billing.js';
export * from './constants.js';
export * from './contact.js';
export * from './errors.js';
export * from './health.js';
export * from './modules.js';
