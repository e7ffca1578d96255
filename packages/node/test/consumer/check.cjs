const sdk = require('@warden/node');
const sqlite = require('@warden/node/receiver-sqlite');
const scenario = require('./scenario.cjs');

scenario(sdk, sqlite).catch((err) => {
  console.error(err);
  process.exit(1);
});
