// Every integration suite's default timeout (jest's is 5 s; a suite's own jest.setTimeout, run
// after this, still wins). See jest.config.js.
jest.setTimeout(30_000);
