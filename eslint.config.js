import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/**
 * Errors are logged whole as `{ err }`: the logger's one serializer (common/serialize-error.ts)
 * keeps the type, code and stack and masks what may be patient data; a bare message string would
 * be logged as {"type":"string"} and nothing else.
 */
const restrictedSyntax = [
  {
    selector: "Property[key.name='err'][value.type='MemberExpression'][value.property.name='message']",
    message: 'log the error itself as { err }: the serializer keeps what is safe',
  },
];

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'data', 'models/train', '.cache', 'server/src/db/migrations'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['eslint.config.js'] },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    rules: {
      // vitest's describe/test (and their skipIf forms) register tests the runner itself tracks.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'vitest', name: ['test', 'describe', 'it', 'suite'] }] },
      ],
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-syntax': ['error', ...restrictedSyntax],
    },
  },
  {
    files: ['client/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  // Accessibility: the recommended jsx-a11y rules on every client component, as errors.
  { ...jsxA11y.flatConfigs.recommended, files: ['client/src/**/*.tsx'] },
  // Procedures and routes hand a service its dependencies one way: `{ ...ctx.deps, … }` (REST:
  // `{ ...deps, … }`); picking them one by one (`db: ctx.deps.db`) is the other way, banned here.
  {
    files: ['server/src/trpc/**/*.ts', 'server/src/rest/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...restrictedSyntax,
        {
          selector: "Property[value.type='MemberExpression'][value.object.property.name='deps']",
          message: 'pass dependencies as { ...ctx.deps, … }',
        },
        {
          selector: "Property[value.type='MemberExpression'][value.object.name='deps']",
          message: 'pass dependencies as { ...deps, … }',
        },
      ],
      // The audit log is written inside services (auditedAccess), never by a procedure or route.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/services/audit/**'], message: 'record audit entries inside the service' }] },
      ],
    },
  },
  // Import boundaries: what crosses a process boundary lives in contracts/ (pure) and common/
  // (shared runtime); the worker and the client reach nothing in server/ but the router's type.
  ...importBoundaries(),
  // No import cycles: a type or helper two modules share moves to a lower module of its own.
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['tsconfig.json', 'client/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
);

function importBoundaries() {
  const ban = (what, why) => ({ group: [`**/${what}/**`, `${what}/**`, '!@trpc/**'], message: why }); // @trpc/server/* is the library, not our server
  const server = ban(
    'server',
    'import it from @contracts/ or @common/ instead: processes share contracts, not server code',
  );
  const rule = (...patterns) => ({ '@typescript-eslint/no-restricted-imports': ['error', { patterns }] });
  return [
    {
      files: ['worker/**/*.ts'],
      rules: rule(
        server,
        ban('client', 'the worker has no UI'),
        ban('scripts', 'scripts are tools on top of the worker; shared code lives in common/'),
      ),
    },
    {
      files: ['client/src/**/*.{ts,tsx}'],
      rules: {
        '@typescript-eslint/no-restricted-imports': [
          'error',
          {
            paths: [
              {
                name: '@server/app-router',
                allowTypeImports: true,
                message: 'only the AppRouter type crosses into the client',
              },
            ],
            patterns: [
              server,
              ban('worker', 'the client runs no model code'),
              { group: ['@common/**'], message: 'common/ is Node runtime code' },
            ],
          },
        ],
      },
    },
    {
      files: ['contracts/**/*.ts'],
      rules: rule(
        server,
        ban('worker', 'contracts are pure'),
        ban('client', 'contracts are pure'),
        ban('common', 'contracts are pure'),
      ),
    },
    {
      files: ['common/**/*.ts'],
      rules: rule(
        server,
        ban('worker', 'common/ is shared by server and worker'),
        ban('client', 'common/ is Node runtime code'),
        ban('scripts', 'common/ is below the tools that use it'),
      ),
    },
  ];
}
