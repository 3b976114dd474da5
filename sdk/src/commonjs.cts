// The CommonJS entry point: `require('@signalbox/api')` is the client class itself (as the README shows), carrying
// the named exports and `.default` as properties, and `__esModule` so that compiled `import Signalbox from` picks
// `.default` too.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- `export =` needs the CommonJS form of import
import api = require('./index.js');

export = Object.assign(api.default, api, { __esModule: true as const });
