#!/usr/bin/env node
// The workspace bin: `npx embedded-mongo --port 27017 --dbpath ./data` (build the workspace first).
import '../dist/cli.js';
