/**
 * The layers of the API's modules (docs/architecture.md, "Modules and their layers"), checked by
 * `npm run lint`. A module may import from its own layer and the layers below it, never from a layer
 * above, and the module folders under api/src/modules may not import each other round in a cycle.
 */

/** Bottom up. */
const LAYERS = [
  {
    name: 'platform',
    modules: ['health', 'tenants', 'throttle', 'platform-settings', 'mail', 'accounts', 'audit', 'billing'],
  },
  { name: 'book', modules: ['policy-types', 'companies', 'customers', 'policies', 'payments'] },
  {
    name: 'work',
    modules: ['setup', 'leads', 'claims', 'calendar', 'alerts', 'notifications', 'imports', 'search'],
  },
  { name: 'views', modules: ['dashboard', 'analytics', 'commission-report', 'audit-log'] },
  { name: 'admin', modules: ['admin', 'support', 'contact', 'demo'] },
];

/**
 * Imports that still run up a layer, each named with its cause, so that removing the cause removes
 * its line here. `from` imports `to`; nothing else is excused.
 */
const KNOWN_UPWARD = [];

/**
 * Module cycles not broken yet: within one group, a module may import another. Each broken cycle
 * takes its modules out of here.
 */
const KNOWN_CYCLES = [
  // The platform's own: registering an agency starts its trial in billing, and billing's plan gate
  // authenticates through accounts.
  ['accounts', 'billing'],
  // The book: policy types, companies and policies read each other's tables (a company's rates
  // per policy type); customers, companies and policy types ask the policies "in use by" before a
  // delete, while the policies' table points at all three.
  ['companies', 'customers', 'policies', 'policy-types'],
];

const folder = (modules) => `^api/src/modules/(${modules.join('|')})`;
const upwardExcused = (from) => KNOWN_UPWARD.filter((edge) => edge.from === from).map((edge) => edge.to);
const cycleExcused = (from) => KNOWN_CYCLES.filter((group) => group.includes(from)).flat();

/** One rule per module, so that its excused targets can be left out of `to`. */
function perModule(make) {
  return LAYERS.flatMap((layer, at) => layer.modules.map((module) => make(module, at))).filter(Boolean);
}

const upward = perModule((module, at) => {
  const above = LAYERS.slice(at + 1)
    .flatMap((layer) => layer.modules)
    .filter((target) => !upwardExcused(module).includes(target));
  if (above.length === 0) return undefined;
  return {
    name: `no-upward-import:${module}`,
    comment: `${module} is in the ${LAYERS[at].name} layer: it may not import a module of a layer above.`,
    severity: 'error',
    from: { path: `${folder([module])}/` },
    to: { path: `${folder(above)}/` },
  };
});

const cycles = perModule((module) => {
  const others = LAYERS.flatMap((layer) => layer.modules).filter(
    (target) => target !== module && !cycleExcused(module).includes(target),
  );
  return {
    name: `no-module-cycle:${module}`,
    comment: `${module} imports a module that imports ${module} back (directly or round a longer cycle).`,
    severity: 'error',
    scope: 'folder',
    from: { path: `${folder([module])}$` },
    to: { path: `${folder(others)}$`, circular: true },
  };
});

const allModules = LAYERS.flatMap((layer) => layer.modules);

module.exports = {
  forbidden: [
    ...upward,
    ...cycles,
    {
      name: 'module-in-a-layer',
      comment: 'Every folder under api/src/modules is in one layer of .dependency-cruiser.cjs.',
      severity: 'error',
      from: { path: '^api/src/modules/[^/]+/' },
      to: { path: '^api/src/modules/[^/]+/', pathNot: `${folder(allModules)}/` },
    },
  ],
  options: {
    includeOnly: '^api/src/modules/',
    exclude: { path: '\\.test\\.ts$' },
    tsPreCompilationDeps: true,
  },
};
