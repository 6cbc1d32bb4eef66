#!/usr/bin/env node
// Shipped as JavaScript so the link in node_modules/.bin exists before `tsc -b` has run.
import { main } from "../dist/main.js";

process.exitCode = await main(process.argv.slice(2));
