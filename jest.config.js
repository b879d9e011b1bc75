/** Type checking is done once by `npm run typecheck`; jest only transpiles (decorator metadata kept). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  setupFiles: ['<rootDir>/test/setup.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json', diagnostics: false }],
    // jose ships ESM only (Node's require(esm) loads it in the CJS build); jest's own loader needs it as CommonJS.
    '^.+/node_modules/jose/.+\\.js$': '<rootDir>/test/esm-transform.js',
  },
  transformIgnorePatterns: ['/node_modules/(?!jose/)'],
  moduleNameMapper: {
    '^onemodelcontext$': '<rootDir>/src/index.ts',
    '^onemodelcontext/(express|fastify|fetch)$': '<rootDir>/src/adapters/$1.ts',
    '^onemodelcontext/redis$': '<rootDir>/src/redis/index.ts',
    '^onemodelcontext/web$': '<rootDir>/src/web.ts',
  },
  testTimeout: 30000,
};
