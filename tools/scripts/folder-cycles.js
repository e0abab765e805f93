// Fails when the feature folders of an app import each other in a circle (`a` imports `b`, which
// imports `a` back, directly or through others). Nx's module-boundary rule already refuses cycles
// between libraries; this is the same rule one level down, inside each app's `src/`. A file at the
// top of `src/` (main.ts, app.module.ts, app-factory.ts) is the app's root: it may import every
// folder and no folder imports it. Run by `npm run lint`.
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const root = path.join(__dirname, '..', '..');

/** Every .ts file under `dir` (specs included: a test must not need a cycle either). */
function filesUnder(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

/** The feature folder of a file of `src` ('' for a file at the top of `src`). */
function folderOf(src, file) {
  const parts = path.relative(src, file).split(path.sep);
  return parts.length > 1 ? parts[0] : '';
}

/** The folder graph of one app: folder -> (imported folder -> the first import seen, for the message). */
function folderGraph(src) {
  const graph = new Map();
  for (const file of filesUnder(src)) {
    const from = folderOf(src, file);
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), fileName);
      if (!target.startsWith(src + path.sep)) continue;
      const to = folderOf(src, target);
      if (to === from) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      if (!graph.get(from).has(to))
        graph.get(from).set(to, `${path.relative(root, file)} -> ${fileName}`);
    }
  }
  return graph;
}

/** Strongly connected components with more than one folder (Tarjan). */
function cycles(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  let next = 0;
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

let failed = false;
for (const app of fs.readdirSync(path.join(root, 'apps'))) {
  const src = path.join(root, 'apps', app, 'src');
  if (!fs.existsSync(src)) continue;
  const graph = folderGraph(src);
  const rootImports = [...graph.entries()]
    .filter(([from, to]) => from !== '' && to.has(''))
    .map(([from, to]) => to.get(''));
  for (const via of rootImports) {
    failed = true;
    console.error(
      `folder-cycles: apps/${app}: a feature folder imports the app's root (a file at the top of src/): ${via}`,
    );
  }
  for (const component of cycles(graph)) {
    failed = true;
    const inside = new Set(component);
    const edges = component.flatMap((from) =>
      [...(graph.get(from)?.entries() ?? [])]
        .filter(([to]) => inside.has(to))
        .map(([, via]) => `    ${via}`),
    );
    console.error(
      `folder-cycles: apps/${app}: these folders import each other in a circle: ${component.join(', ')}\n${edges.join('\n')}`,
    );
  }
}
if (failed) process.exit(1);
