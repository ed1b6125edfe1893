/**
 * The pages' only stylesheet and only script, served from the handler itself on every runtime (no bundler
 * asset step for the Worker). Plain CSS for phones first; the script only adds the Copy button.
 */
export const SETTINGS_CSS = `*{box-sizing:border-box}
body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1a1a1a;background:#fff}
header.site{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.5rem;padding:.75rem 1rem;border-bottom:1px solid #ddd}
.brand{margin:0;font-weight:700}.brand a{color:inherit;text-decoration:none}
nav ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;margin:0;padding:0;align-items:center}
main{max-width:72rem;margin:0 auto;padding:1rem}
h1{font-size:1.6rem;margin:.5rem 0 1rem}h2{font-size:1.25rem;margin-top:2rem}
a{color:#0b57d0}a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid #0b57d0;outline-offset:2px}
code{font-family:ui-monospace,Menlo,Consolas,monospace;background:#f3f3f3;padding:0 .25em;border-radius:3px;overflow-wrap:anywhere}
.secret code{display:block;padding:.75rem;font-size:1.05rem;border:1px solid #ccc}
.table-scroll{max-width:100%;overflow-x:auto;margin:.5rem 0}
table{border-collapse:collapse;min-width:100%}.table-title{font-weight:600;margin:1.25rem 0 .25rem}
td,th{border:1px solid #ddd;padding:.35rem .6rem;text-align:left;vertical-align:top}th[scope=row]{min-width:8rem}thead th{background:#f6f6f6}
td time,td code{white-space:nowrap}td.reference{overflow-wrap:anywhere;min-width:8rem}td.actions form{margin:.1rem 0}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dl.facts dt{font-weight:600}dl.facts dd{margin:0;min-width:0;overflow-wrap:anywhere}
nav a[aria-current=page]{color:inherit;font-weight:700;text-decoration:none;border-bottom:3px solid #0b57d0}
@media (max-width:40rem){
table.stacks,.stacks tbody,.stacks tr,.stacks td,.stacks th{display:block}
.stacks thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.stacks tr{border:1px solid #ddd;border-radius:4px;margin:0 0 .75rem;padding:.4rem .6rem}
.stacks td,.stacks tbody th{position:relative;border:0;min-width:0;padding:.15rem 0 .15rem 8.5rem}
.stacks [data-label]::before{content:attr(data-label);content:attr(data-label) / "";position:absolute;left:0;width:8rem;font-weight:600}
.stacks td:empty{display:none}.stacks td code{white-space:normal}
}
form.stacked{display:grid;gap:.4rem;max-width:24rem}
form.inline,form.inline-form{display:inline-flex;flex-wrap:wrap;gap:.4rem;align-items:center;margin:0}
input,select,button{font:inherit;padding:.4rem .6rem;border:1px solid #888;border-radius:4px}
input,select{width:100%}form.inline-form input{width:auto}
button{background:#0b57d0;color:#fff;border-color:#0b57d0;cursor:pointer}
button.link{background:none;color:#0b57d0;border:none;padding:0;text-decoration:underline}
.error{color:#a50e0e;font-weight:600}.notice{background:#fff8e1;border-left:4px solid #f0b400;padding:.5rem .75rem}
`;

export const SETTINGS_JS = `'use strict';
document.querySelectorAll('button[data-copy]').forEach(function (button) {
  var source = document.getElementById(button.getAttribute('data-copy'));
  if (!source || !navigator.clipboard) return;
  button.hidden = false;
  button.addEventListener('click', function () {
    navigator.clipboard.writeText(source.textContent).then(function () {
      button.textContent = 'Copied';
    });
  });
});
`;
