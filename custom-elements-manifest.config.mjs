/**
 * The Custom Elements Manifest (`custom-elements.json`, package.json's `customElements`): every tag
 * with its attributes, properties, events, CSS custom properties and parts, from the classes' JSDoc
 * (`@tagname`, `@attr`, `@prop`, `@fires`, `@cssprop`, `@csspart`) and `static observedAttributes`.
 *
 *   npm run -s gen:manifest      (@custom-elements-manifest/analyzer, on its own TypeScript 5)
 *
 * test/server/manifest-fresh.test.ts fails when the checked-in file differs from a fresh one.
 */
const camel = (name) => name.replace(/-(.)/g, (_, c) => c.toUpperCase());
/** What the analyzer takes for API but is plumbing: the shadow root's sheets, the frames' callback. */
const PLUMBING = new Set(['adoptedStyleSheets', 'frameEvent', 'frameConfig', 'adopt', 'setup']);

/**
 * What the analyzer cannot see: our option properties are accessors `defineElement` adds from the
 * attributes (components/define.ts). Each attribute gets its property (`card-schemes-display` ↔
 * `cardSchemesDisplay`, documented as the attribute); `total-*` and `appearance-*` belong to the
 * object properties `total` and `appearance` (their own `@prop`). Then only the public API stays:
 * element classes (no helpers), public members (no protected, private or static plumbing).
 */
function publicApi() {
  return {
    name: 'cpe:public-api',
    packageLinkPhase({ customElementsManifest }) {
      // The analyzer reads the files in no fixed order: by path, so a fresh manifest is the same one.
      customElementsManifest.modules.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      for (const module of customElementsManifest.modules) {
        module.declarations = (module.declarations ?? []).filter((declaration) => declaration.kind === 'class');
        const names = new Set(module.declarations.map((declaration) => declaration.name));
        module.exports = (module.exports ?? []).filter((entry) => names.has(entry.declaration?.name));
        for (const declaration of module.declarations) {
          const members = (declaration.members ?? []).filter((member) => !member.static && (member.privacy ?? 'public') === 'public' && !PLUMBING.has(member.name));
          for (const attribute of declaration.attributes ?? []) {
            if (/^(total|appearance)-/.test(attribute.name)) continue;
            const fieldName = camel(attribute.name);
            attribute.fieldName = fieldName;
            let field = members.find((member) => member.name === fieldName);
            if (!field) members.push((field = { kind: 'field', name: fieldName }));
            Object.assign(field, { type: attribute.type, description: attribute.description, default: attribute.default, attribute: attribute.name, reflects: true });
            for (const key of ['type', 'description', 'default']) if (field[key] === undefined) delete field[key];
          }
          declaration.members = members.sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'field' ? -1 : 1));
        }
      }
      customElementsManifest.modules = customElementsManifest.modules.filter((module) => module.declarations.length);
    },
  };
}

export default {
  globs: ['components/*/*.component.ts', 'components/internal/frame-host.ts'],
  outdir: '.',
  dependencies: false,
  // package.json's customElements names custom-elements.json already; a run into another folder (the test's) must not change it.
  packagejson: false,
  plugins: [publicApi()],
};
