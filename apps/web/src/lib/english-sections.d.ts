// The two halves of en.json (apps/web/vite-plugins/english-sections.ts); t() keys stay typed from en.json itself (i18next.d.ts).
declare module 'virtual:english/first-load' {
  const strings: Record<string, unknown>;
  export default strings;
}
declare module 'virtual:english/rest' {
  const strings: Record<string, unknown>;
  export default strings;
}
