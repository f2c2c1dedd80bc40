// Validates an AsyncAPI document with the official parser (the one @asyncapi/cli uses),
// then every message example (and every sample given) against its message's payload
// schema: the parser checks examples of AsyncAPI 2 documents only.
//
//   node tools/asyncapi/validate.js docs/asyncapi.yaml [samples.json]
//
// samples.json: [{"message": "Reply", "payload": {...}}, ...] -- payloads seen on the wire.
// Prints one line per problem; exits 1 when there is any error, 2 when it cannot run.
'use strict';

const fs = require('fs');

let Parser;
let DiagnosticSeverity;
let Ajv;
try {
  ({ Parser, DiagnosticSeverity } = require('@asyncapi/parser'));
  Ajv = require('ajv');
} catch (err) {
  console.error(`the validator is not installed (${err.code}): run npm ci --prefix tools/asyncapi`);
  process.exit(2);
}

const SEVERITY = ['error', 'warning', 'info', 'hint'];
const SHOWN = 40;

function payloadChecks(document, samples) {
  // strict: false -- the parser adds x-parser-* keys to every schema.
  const ajv = new Ajv({ strict: false, allErrors: false });
  const validators = new Map();
  const problems = [];
  let checked = 0;
  const check = (name, payload, where) => {
    if (!validators.has(name)) {
      const message = document.allMessages().get(name);
      if (!message || !message.payload()) {
        problems.push(`${where}: no message ${name} with a payload in the document`);
        return;
      }
      validators.set(name, ajv.compile(message.payload().json()));
    }
    const validate = validators.get(name);
    checked += 1;
    if (!validate(payload)) {
      const first = validate.errors[0];
      problems.push(`${where}: ${first.instancePath || '/'} ${first.message}`);
    }
  };
  for (const message of document.allMessages()) {
    message.examples().forEach((example, i) => {
      if (example.hasPayload()) {
        check(message.id(), example.payload(), `example ${message.id()}[${i}]`);
      }
    });
  }
  // Schemas' own examples (each game's moves carry one).
  for (const schema of document.components().schemas()) {
    const examples = schema.examples() || [];
    if (!examples.length) continue;
    const validate = ajv.compile(schema.json());
    examples.forEach((example, i) => {
      checked += 1;
      if (!validate(example)) {
        const first = validate.errors[0];
        problems.push(`schema ${schema.id()} example ${i}: ${first.instancePath || '/'} ${first.message}`);
      }
    });
  }
  samples.forEach((s, i) => check(s.message, s.payload, `sample ${i} (${s.message})`));
  return { problems, checked };
}

async function main(path, samplesPath) {
  const text = fs.readFileSync(path, 'utf8');
  const samples = samplesPath ? JSON.parse(fs.readFileSync(samplesPath, 'utf8')) : [];
  const { document, diagnostics } = await new Parser().parse(text, { source: path });
  for (const d of diagnostics.slice(0, SHOWN)) {
    const where = d.path.length ? d.path.join('.') : '(document)';
    console.log(`${SEVERITY[d.severity]} ${d.code} at ${where}: ${d.message}`);
  }
  if (diagnostics.length > SHOWN) console.log(`... and ${diagnostics.length - SHOWN} more`);
  const errors = diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error).length;
  let payloadErrors = 0;
  let checked = 0;
  if (document) {
    const result = payloadChecks(document, samples);
    result.problems.forEach((p) => console.log(`error payload ${p}`));
    payloadErrors = result.problems.length;
    checked = result.checked;
  }
  console.log(
    `${path}: ${errors} error(s), ${diagnostics.length - errors} other; ` +
      `${checked} payload(s) checked, ${payloadErrors} invalid`,
  );
  return errors || payloadErrors || !document ? 1 : 0;
}

if (process.argv.length < 3 || process.argv.length > 4) {
  console.error('usage: node validate.js ASYNCAPI.yaml [SAMPLES.json]');
  process.exit(2);
}
main(process.argv[2], process.argv[3]).then(
  (code) => process.exit(code),
  (err) => {
    console.error(`cannot validate: ${err.message}`);
    process.exit(2);
  },
);
