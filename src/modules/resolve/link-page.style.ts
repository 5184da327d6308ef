// The link page's stylesheet, inlined and allowed by its hash, so the page needs no other request and no 'unsafe-inline'.
export const LINK_PAGE_STYLE = `
:root { color-scheme: light dark; --bg: #f4f5f7; --card: #fff; --text: #1d2129; --muted: #5b6472; --line: #d9dde3;
  --accent: #2457d6; --accent-text: #fff; --soft: #eef1f6; --note: #fff6dc; --note-line: #e0b440;
  --alert: #fde7e6; --alert-line: #b3261e; --alert-text: #7a1812; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #121417; --card: #1c1f24; --text: #e8eaed; --muted: #a3aab5; --line: #343a43;
    --accent: #7aa2ff; --accent-text: #0b1020; --soft: #262a31; --note: #2e2816; --note-line: #9c7a1e;
    --alert: #3a1b19; --alert-line: #ff8a80; --alert-text: #ffd9d5; }
}
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; background: var(--bg); color: var(--text);
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; }
main { max-width: 40rem; margin: 0 auto; padding: 1.25rem 1rem 2rem; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 14px; padding: 1.25rem 1.5rem;
  margin-bottom: 1rem; }
.top { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: .25rem .75rem;
  margin-bottom: .5rem; }
.brand { display: flex; align-items: center; gap: .5rem; margin: 0; color: var(--muted); font-size: .85rem;
  font-weight: 600; }
.brand .logo { width: 28px; height: 28px; object-fit: contain; border-radius: 6px; }
.langs { display: flex; flex-wrap: wrap; gap: .1rem .6rem; font-size: .85rem; }
.langs a { color: var(--muted); text-decoration: none; padding: .2rem 0; }
.langs a[aria-current] { color: var(--text); font-weight: 600; text-decoration: underline; }
h1 { margin: 0 0 .25rem; font-size: 1.5rem; line-height: 1.25; overflow-wrap: anywhere; }
h2 { margin: 0 0 .75rem; font-size: 1.1rem; }
p { margin: .5rem 0; overflow-wrap: anywhere; }
a { color: var(--accent); }
.muted, .hint { color: var(--muted); }
.hint { font-size: .88rem; }
.announce { margin: .75rem 0; padding: .6rem .8rem; border-radius: 8px; background: var(--note);
  border-inline-start: 4px solid var(--note-line); white-space: pre-line; }
.banner { margin: .75rem 0; padding: .8rem 1rem; border-radius: 10px; background: var(--alert); color: var(--alert-text);
  border: 2px solid var(--alert-line); }
.banner[hidden] { display: none; }
.banner p { margin: .2rem 0; }
.banner-title { font-size: 1.1rem; font-weight: 700; }
.banner-link { display: inline-block; margin-top: .4rem; font-weight: 700; color: inherit; }
dl.facts { display: grid; grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr)); gap: .75rem; margin: 1rem 0 0; }
dl.facts div { padding: .6rem .8rem; background: var(--soft); border-radius: 10px; min-width: 0; }
dt { color: var(--muted); font-size: .8rem; }
dd { margin: 0; font-weight: 600; overflow-wrap: anywhere; }
dd small { display: block; color: var(--muted); font-weight: 400; }
meter { display: block; width: 100%; height: .6rem; margin-top: .3rem; }
.links { display: flex; flex-wrap: wrap; gap: .25rem 1rem; margin-top: .75rem; font-size: .95rem; }
.copy { display: flex; gap: .5rem; }
.copy input { flex: 1; min-width: 0; padding: .6rem .75rem; font: .92rem ui-monospace, SFMono-Regular, Menlo, monospace;
  color: inherit; background: var(--soft); border: 1px solid var(--line); border-radius: 8px; }
.copy input:focus { outline: 2px solid var(--accent); outline-offset: 1px; }
button { padding: .6rem 1rem; font: inherit; font-weight: 600; color: var(--brand-text, var(--accent-text));
  background: var(--brand, var(--accent)); border: 1px solid var(--brand, var(--accent)); border-radius: 8px;
  cursor: pointer; }
.status { min-height: 1.5em; margin: .25rem 0 0; color: var(--muted); font-size: .88rem; }
.qr { margin: .5rem 0 0; text-align: center; }
.qr svg { display: block; width: 100%; max-width: 15rem; height: auto; margin: 0 auto; border-radius: 6px;
  shape-rendering: crispEdges; }
.qr figcaption { margin-top: .35rem; color: var(--muted); font-size: .85rem; }
details { border-top: 1px solid var(--line); }
details:last-of-type { border-bottom: 1px solid var(--line); }
summary { padding: .7rem .25rem; font-weight: 600; cursor: pointer; }
.apps { display: grid; grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr)); gap: .75rem; margin: 0;
  padding: 0 0 1rem; list-style: none; }
.app-entry { padding: .6rem; background: var(--soft); border-radius: 10px; min-width: 0; }
a.app { display: block; padding: .6rem .75rem; text-align: center; text-decoration: none; font-weight: 600;
  color: var(--brand-text, var(--accent-text)); background: var(--brand, var(--accent)); border-radius: 8px; }
a.app:hover, a.app:focus { outline: 2px solid var(--text); outline-offset: 2px; }
.get { margin: .45rem 0 .2rem; font-size: .88rem; font-weight: 600; }
.steps { margin: 0; color: var(--muted); font-size: .82rem; line-height: 1.4; }
.formats { margin-top: 1rem; }
.formats label { display: block; margin: .75rem 0 .3rem; font-size: .9rem; font-weight: 600; }
footer { color: var(--muted); font-size: .8rem; text-align: center; }
@media (max-width: 420px) {
  main { padding: .5rem; }
  .card { padding: 1rem; border-radius: 10px; }
  h1 { font-size: 1.3rem; }
  .apps { grid-template-columns: 1fr; }
}
`;
