// Preloaded into the server by `npm start` (`node --import`): stack traces name lines of our
// TypeScript sources, through the source map of the server's bundle, and only of it.
// `--enable-source-maps` also reads and keeps the map of every npm package that ships one
// (glob, luxon, ajv, @opentelemetry/api…), which cost 12-15 MB of RSS against 1-2 MB for
// the bundle's own (docs/decisions/0035-server-memory.md).
import module from 'node:module';

if (module.setSourceMapsSupport) module.setSourceMapsSupport(true);
// Node 22 before 22.14 can only map every module, as --enable-source-maps does.
else process.setSourceMapsEnabled(true);
