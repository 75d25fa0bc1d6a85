// Starts a worker thread whose entry is TypeScript (tests and `npm run dev`): tsx compiles it and
// what it imports. The bundled app in dist/ starts its workers' JavaScript directly.
const { register } = await import('tsx/esm/api');
register();
await import(process.argv.at(-1));
