// Bundles the API into dist/ for `npm start`. Third-party packages stay in node_modules; the
// workspace's own TypeScript (the contract) is bundled in, since Node cannot load it directly.
import { build } from 'esbuild';

await build({
  entryPoints: [
    'src/main.ts',
    'src/cli/admin-create.ts',
    'src/cli/demo-reset.ts',
    'src/cli/backup.ts',
    'src/cli/restore.ts',
    // Worker threads start from files of their own (see src/paths.ts).
    'src/modules/imports/file-worker.ts',
  ],
  outdir: 'dist',
  // Flat output: every entry sits one level below api/, where src/paths.ts expects to be.
  entryNames: '[name]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'external-packages',
      setup(pluginBuild) {
        pluginBuild.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@coverdesk/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
