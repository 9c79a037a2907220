import path from 'node:path';
import process from 'node:process';

/**
 * Layer rules as allow-lists: each layer of a table says which files are its own (`files`, a
 * regular expression on the path from the repository's root) and which layers it may import
 * (its own files always). Anything else is refused, so a folder added later is refused until a
 * layer names it, where a deny-list would have let it in. `types` are layers it may take types
 * from but never call (a port it is handed, a row's shape). A file is the first layer that takes
 * it, in the table's order.
 *
 * eslint-plugin-boundaries (7) was tried: it classifies folders, and half of these layers are
 * single files (config.ts, app-error.ts, store/index.ts, each domain's compose.ts).
 */
export function allowLists(name, table) {
  const layers = Object.entries(table).map(([layer, rule]) => ({ layer, ...rule }));
  const layerOf = (file) => layers.find((l) => l.files.test(file))?.layer;
  const root = process.cwd();
  const rule = {
    meta: { type: 'problem', schema: [], docs: { description: `What each layer of ${name} may import.` } },
    create(context) {
      const file = path.relative(root, context.filename).split(path.sep).join('/');
      const from = layerOf(file);
      if (!from) return {};
      const { may = [], types = [], why = '' } = table[from];
      const check = (node, source, typeOnly) => {
        if (typeof source !== 'string' || !source.startsWith('.')) return;
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), source));
        const to = layerOf(target);
        if (to === from || may.includes(to) || (typeOnly && types.includes(to))) return;
        const allowed = may.length ? may.join(', ') : 'only its own files';
        const typesToo = types.length ? `, and the types of ${types.join(', ')}` : '';
        const what = to ? `${to}${types.includes(to) ? ' (types only)' : ''}` : `${target}, which is in no layer`;
        context.report({ node, message: `${from} may not import ${what}: it may import ${allowed}${typesToo}. ${why}`.trim() });
      };
      const typeOnly = (node) =>
        node.importKind === 'type' ||
        node.exportKind === 'type' ||
        (node.specifiers?.length > 0 && node.specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type'));
      return {
        ImportDeclaration: (node) => check(node.source, node.source.value, typeOnly(node)),
        ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value, typeOnly(node)),
        ExportAllDeclaration: (node) => check(node.source, node.source.value, node.exportKind === 'type'),
        ImportExpression: (node) => check(node.source, node.source.value, false),
      };
    },
  };
  return { plugins: { layers: { rules: { [name]: rule } } }, rule: `layers/${name}` };
}
