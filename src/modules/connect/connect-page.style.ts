// The connect page's stylesheet, inlined and allowed by its hash so the page needs no other request and no 'unsafe-inline'.
export const CONNECT_PAGE_STYLE = `
:root { color-scheme: light dark; --bg: #f4f5f7; --card: #fff; --text: #1d2129; --muted: #5b6472; --line: #d9dde3;
  --accent: #2457d6; --accent-text: #fff; --ok: #1d7a46; --warn: #9a6200; --bad: #b3261e; --soft: #eef1f6; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #121417; --card: #1c1f24; --text: #e8eaed; --muted: #a3aab5; --line: #343a43;
    --accent: #7aa2ff; --accent-text: #0b1020; --ok: #5cc98b; --warn: #f0b44c; --bad: #ff8a80; --soft: #262a31; }
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; min-height: 100vh; background: var(--bg); color: var(--text);
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; }
main { max-width: 34rem; margin: 0 auto; padding: 1.25rem 1rem 2rem; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 14px; padding: 1.5rem; }
.top { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: .25rem .75rem;
  margin-bottom: .75rem; }
.brand { display: flex; align-items: center; gap: .5rem; margin: 0; color: var(--muted); font-size: .85rem; font-weight: 600; }
.brand .logo { width: 28px; height: 28px; object-fit: contain; border-radius: 6px; }
.langs { display: flex; flex-wrap: wrap; gap: .1rem .6rem; font-size: .85rem; }
.langs a { color: var(--muted); text-decoration: none; padding: .2rem 0; }
.langs a[aria-current] { color: var(--text); font-weight: 600; text-decoration: underline; }
.where { margin: 1rem 0 0; padding: .6rem .8rem; background: var(--soft); border-radius: 10px; font-size: .92rem; }
.where summary { font-weight: 600; cursor: pointer; }
h1 { margin: 0 0 .5rem; font-size: 1.45rem; line-height: 1.25; overflow-wrap: anywhere; }
.name { color: var(--accent); }
p { margin: .5rem 0; }
.meta { color: var(--muted); font-size: .92rem; overflow-wrap: anywhere; }
a { color: var(--accent); }
ul.facts { margin: 1rem 0; padding-block: .75rem; padding-inline: 2rem 1rem; background: var(--soft); border-radius: 10px; font-size: .92rem; }
ul.facts li + li { margin-top: .3rem; }
label { display: block; margin: 1.25rem 0 .35rem; font-weight: 600; }
.row { display: flex; gap: .5rem; }
input { flex: 1; min-width: 0; padding: .65rem .75rem; font: inherit; color: inherit; background: var(--card);
  border: 1px solid var(--line); border-radius: 8px; }
input:focus { outline: 2px solid var(--accent); outline-offset: 1px; }
button { padding: .65rem 1rem; font: inherit; font-weight: 600; color: var(--text); background: var(--soft);
  border: 1px solid var(--line); border-radius: 8px; cursor: pointer; }
button:disabled { opacity: .55; cursor: progress; }
button.primary, button[type="submit"] { color: var(--brand-text, var(--accent-text)); background: var(--brand, var(--accent));
  border-color: var(--brand, var(--accent)); }
button.danger { color: var(--bad); border-color: var(--bad); background: transparent; }
button.link { padding: 0; border: 0; background: none; color: var(--muted); font-weight: 400; text-decoration: underline; }
.hint { color: var(--muted); font-size: .82rem; }
#state { margin-top: 1.25rem; padding-top: 1rem; border-top: 1px solid var(--line); }
.badge { display: inline-block; padding: .1rem .6rem; border-radius: 999px; font-size: .85rem; font-weight: 700; border: 1px solid currentColor; }
.badge[data-state="pending"] { color: var(--warn); }
.badge[data-state="approved"] { color: var(--ok); }
.badge[data-state="revoked"], .badge[data-state="none"] { color: var(--muted); }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; margin-top: .75rem; }
.actions button { flex: 1 1 8rem; }
#notice { margin-top: 1rem; padding: .65rem .8rem; border-radius: 8px; border-inline-start: 4px solid var(--muted);
  background: var(--soft); }
#notice[data-kind="error"] { border-inline-start-color: var(--bad); }
#notice[data-kind="ok"] { border-inline-start-color: var(--ok); }
@media (max-width: 420px) { main { padding: .5rem; } .card { padding: 1.1rem; border-radius: 10px; } .row { flex-direction: column; } }
`;
