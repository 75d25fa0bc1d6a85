/**
 * The layers of the API's modules (docs/architecture.md, "Modules and their layers"), checked by
 * `npm run lint`. A module may import from its own layer and the layers below it, never from a layer
 * above, and the module folders under api/src/modules may not import each other round in a cycle.
 */

/** Bottom up. */
const LAYERS = [
  {
    name: 'platform',
    modules: [
      'health',
      'tenants',
      'throttle',
      'platform-settings',
      'mail',
      'accounts',
      'audit',
      'billing',
      'team',
    ],
  },
  { name: 'book', modules: ['policy-types', 'companies', 'customers', 'policies', 'payments'] },
  {
    name: 'work',
    modules: [
      'setup',
      'leads',
      'claims',
      'documents',
      'calendar',
      'alerts',
      'notifications',
      'imports',
      'search',
      'commission-statements',
    ],
  },
  { name: 'views', modules: ['dashboard', 'analytics', 'commission-report', 'audit-log'] },
  { name: 'admin', modules: ['admin', 'support', 'contact', 'demo'] },
];

const folder = (modules) => `^api/src/modules/(${modules.join('|')})`;

/** One rule per module, named after it, so a failure says which module broke the layering. */
function perModule(make) {
  return LAYERS.flatMap((layer, at) => layer.modules.map((module) => make(module, at))).filter(Boolean);
}

const upward = perModule((module, at) => {
  const above = LAYERS.slice(at + 1).flatMap((layer) => layer.modules);
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
  const others = LAYERS.flatMap((layer) => layer.modules).filter((target) => target !== module);
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
