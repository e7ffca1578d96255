// The allowed import directions between Warden's packages and server layers, checked by
// `npm run lint:layers` (part of `npm run lint`). Violations that existed when a rule was written
// are listed in .dependency-cruiser-known-violations.json and ignored (`--ignore-known`); any new
// one fails the lint. Refresh that list with `npm run lint:layers:baseline` only when you mean to
// accept what is there now (docs/architecture.md, "Layers").

const SERVER = '^packages/server/src/';
/**
 * Tests and their helpers (`*.test.ts`, `test-*.ts`, `*.fixtures.ts`, `test/`, the server's
 * `testing/`) may cross layers (an SDK test starts a real server; a storage test builds rows with
 * the scoring code): the layer rules judge shipped code. Cycles count everywhere.
 */
const TESTS = [
  '\\.test\\.tsx?$',
  '/test-[^/]+\\.ts$',
  '\\.fixtures\\.ts$',
  '^packages/[^/]+/test/',
  `${SERVER}testing/`,
];

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles, type-only imports included: a cycle means two modules are one.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'dashboard-not-to-server',
      severity: 'error',
      comment:
        'The dashboard, its tests and build scripts included, talks to the server over HTTP only: the API contract (schemas, answer types, roles and permission matrix, signal catalogue) is @warden/protocol. No known violation may be listed for this rule.',
      from: { path: '^packages/dashboard/' },
      to: { path: '^packages/server/' },
    },
    {
      name: 'sdks-not-to-server',
      severity: 'error',
      comment: 'The SDKs talk to the server over HTTP only; the shapes they share live in packages/protocol.',
      from: { path: '^packages/(browser|node)/', pathNot: TESTS },
      to: { path: '^packages/server/' },
    },
    {
      name: 'protocol-self-contained',
      severity: 'error',
      comment: 'packages/protocol is the contract every other package imports; it imports none of them.',
      from: { path: '^packages/protocol/' },
      to: { path: '^packages/(server|node|browser|dashboard)/' },
    },
    {
      name: 'browser-code-without-node',
      severity: 'error',
      comment:
        "Code that runs in a browser (the browser SDK, the dashboard, protocol's main entry) imports no Node built-in; protocol's Node-only wire helpers are subpath exports.",
      from: {
        path: '^packages/(browser|dashboard|protocol)/src/',
        pathNot: ['^packages/protocol/src/(webhook-signature|altcha)\\.ts$', ...TESTS],
      },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'sdks-not-to-each-other',
      severity: 'error',
      comment: 'The browser SDK, the Node SDK and the dashboard are built and shipped apart.',
      from: { path: '^packages/(browser|node|dashboard)/', pathNot: TESTS },
      to: { path: '^packages/(browser|node|dashboard)/', pathNot: '^packages/$1/' },
    },
    {
      name: 'routes-only-from-http',
      severity: 'error',
      comment: 'Route plugins are registered by http/; nothing else depends on a route module.',
      from: { path: SERVER, pathNot: [`${SERVER}http/`, ...TESTS] },
      to: { path: `${SERVER}http/routes/` },
    },
    {
      name: 'storage-not-to-upper-layers',
      severity: 'error',
      comment:
        'storage/ (database, migrations, table types) sits at the bottom: it imports no layer above it.',
      from: { path: `${SERVER}storage/`, pathNot: TESTS },
      to: {
        path: `${SERVER}(http|pipeline|scoring|decisions|rules|challenge|webhooks|sso|workspace|audit|entities|overview|cluster|housekeeping)/`,
      },
    },
    {
      name: 'signals-without-io',
      severity: 'error',
      comment:
        'A signal is a pure function of the evidence: no storage, HTTP, request pipeline, state or webhook module.',
      from: { path: `${SERVER}scoring/signals/`, pathNot: TESTS },
      to: { path: `${SERVER}(storage|http|pipeline|state|webhooks|decisions)/` },
    },
    {
      name: 'only-http-to-http',
      severity: 'error',
      comment:
        'http/ is the top layer: only http/ itself and the entry points that start the app (CLI, cluster worker) import it.',
      from: {
        path: SERVER,
        pathNot: [`${SERVER}http/`, `${SERVER}(main|cli[^/]*|serve-steps|cluster/worker)\\.ts$`, ...TESTS],
      },
      to: { path: `${SERVER}http/` },
    },
    {
      name: 'routes-without-sql',
      severity: 'error',
      comment:
        'http/ defines routes and hooks; queries live with the module that owns their table (workspace/, rules/, decisions/, …). No value import of kysely or of the query helpers of storage/ (types of rows are fine).',
      from: { path: `${SERVER}http/`, pathNot: TESTS },
      to: {
        path: ['(^|/)node_modules/kysely/', `${SERVER}storage/(precompiled|migrations/)`],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'production-not-to-tests',
      severity: 'error',
      comment: 'Shipped code never imports a test or a test helper.',
      from: { path: '^packages/[^/]+/src/', pathNot: TESTS },
      to: { path: TESTS },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Built output is not source; npm modules stay in the graph (not followed) so rules can name them.
    exclude: { path: '(^|/)packages/[^/]+/dist/' },
    // Type-only imports count: they are the ones that tie context.ts and services.ts into a cycle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      // Resolve the workspaces to their sources, as tsconfig.json and vitest do.
      conditionNames: ['warden-source', 'import', 'require', 'node', 'default'],
      exportsFields: ['exports'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    preserveSymlinks: false,
  },
};
