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
fieldset.item{grid-template-columns:minmax(0,1fr) minmax(0,1fr)}fieldset.item .description{grid-column:1 / -1}
section.preview iframe{height:24rem}
table.stacks,.stacks tbody,.stacks tr,.stacks td,.stacks th{display:block}
.stacks thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.stacks tr{border:1px solid #ddd;border-radius:4px;margin:0 0 .75rem;padding:.4rem .6rem}
.stacks td,.stacks tbody th{position:relative;border:0;min-width:0;padding:.15rem 0 .15rem 8.5rem}
.stacks [data-label]::before{content:attr(data-label);content:attr(data-label) / "";position:absolute;left:0;width:8rem;font-weight:600}
.stacks td:empty{display:none}.stacks td code{white-space:normal}
}
form.stacked{display:grid;gap:.4rem;max-width:24rem}form.stacked.wide{max-width:40rem}
textarea{font:inherit;width:100%;padding:.4rem .6rem;border:1px solid #888;border-radius:4px}
pre{background:#f3f3f3;padding:.75rem;overflow-x:auto;max-width:100%;white-space:pre-wrap;overflow-wrap:anywhere}pre code{background:none;padding:0}
ul.choices{list-style:none;padding:0;display:grid;gap:.75rem}ul.choices li{border:1px solid #ddd;border-radius:4px;padding:.6rem .8rem}
form.document{display:grid;gap:1rem;max-width:48rem}
fieldset{border:1px solid #ccc;border-radius:4px;padding:.5rem .9rem .9rem;margin:0;min-width:0}fieldset.options{display:grid;gap:.75rem}legend{font-weight:600;padding:0 .25rem}
.field{display:grid;gap:.2rem}.field label{font-weight:600}.field.checkbox{display:block}.field.checkbox input{width:auto;margin-right:.4rem}
.hint{margin:0;color:#4a4a4a;font-size:.9rem}.required,.optional{font-weight:400;color:#4a4a4a;font-size:.9rem}
.field-error{margin:0;color:#a50e0e;font-weight:600}[aria-invalid=true]{border:2px solid #a50e0e}
fieldset.item{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,1fr) minmax(0,1.3fr);gap:.5rem;margin:.5rem 0}
fieldset.item .cell{display:grid;gap:.15rem;min-width:0}fieldset.item label{font-size:.9rem}
.actions{display:flex;flex-wrap:wrap;gap:.5rem}.final{border-top:1px solid #ddd;padding-top:.75rem}
button.secondary{background:#fff;color:#0b57d0;border-color:#0b57d0}button.danger{background:#a50e0e;border-color:#a50e0e}
.problems{border:3px solid #a50e0e;border-radius:4px;padding:.5rem 1rem;margin:1rem 0}.problems h2{margin-top:.25rem;font-size:1.1rem}
.totals{margin-bottom:1.5rem}.totals table{min-width:0}.totals td{text-align:right;white-space:nowrap}.totals tr.strong th,.totals tr.strong td{border-top:2px solid #1a1a1a;font-weight:700}.totals tr.emphasis{background:#f0f0f0;font-weight:700}
section.preview iframe{width:100%;height:36rem;border:1px solid #ccc}
.problems:focus,.totals:focus,.copy:focus{outline:3px solid #0b57d0;outline-offset:2px}
ol.steps li{margin:.25rem 0}
.lead{font-size:1.1rem;max-width:48rem}ul.facts-list{max-width:48rem}ul.facts-list li{margin:.3rem 0}
a.button{display:inline-block;margin:.1rem .5rem .4rem 0;padding:.5rem .9rem;border-radius:4px;background:#0b57d0;color:#fff;text-decoration:none;border:1px solid #0b57d0}
a.button.secondary{background:#fff;color:#0b57d0}td.actions a.button{display:block;margin:.15rem 0 .35rem;padding:.3rem .6rem;text-align:center}
form.inline,form.inline-form{display:inline-flex;flex-wrap:wrap;gap:.4rem;align-items:center;margin:0}
input,select,button{font:inherit;padding:.4rem .6rem;border:1px solid #888;border-radius:4px}
input,select{width:100%}form.inline-form input{width:auto}
button{background:#0b57d0;color:#fff;border-color:#0b57d0;cursor:pointer}
button.link{background:none;color:#0b57d0;border:none;padding:0;text-decoration:underline}
.error{color:#a50e0e;font-weight:600}.notice{background:#fff8e1;border-left:4px solid #f0b400;padding:.5rem .75rem}
`;

export const SETTINGS_JS = `'use strict';
// Drafts of the document form live in this browser only (localStorage), never on the server.
(function () {
  if (!window.localStorage) return;
  // Signed out (no Settings navigation), no draft stays behind for the next person at this browser.
  if (!document.querySelector('nav[aria-label="Settings"]')) {
    Object.keys(localStorage).forEach(function (name) {
      if (name.indexOf('svc-draft:') === 0) localStorage.removeItem(name);
    });
    return;
  }
  var form = document.querySelector('form[data-draft]');
  if (!form) return;
  var key = 'svc-draft:' + form.getAttribute('data-draft');
  var skip = { csrf: 1, form_id: 1, item_rows: 1 };
  function named() {
    return Array.prototype.filter.call(form.elements, function (element) {
      return element.name && !skip[element.name] && element.tagName !== 'BUTTON';
    });
  }
  function save() {
    var draft = {};
    named().forEach(function (element) {
      draft[element.name] = element.type === 'checkbox' ? (element.checked ? element.value : '') : element.value;
    });
    try { localStorage.setItem(key, JSON.stringify(draft)); } catch (error) { /* storage full or refused: no draft */ }
  }
  var empty = named().every(function (element) {
    return element.type === 'checkbox' ? !element.checked : element.tagName === 'SELECT' || element.value === '';
  });
  var saved = localStorage.getItem(key);
  if (empty && saved) {
    var draft = JSON.parse(saved);
    named().forEach(function (element) {
      if (!(element.name in draft)) return;
      if (element.type === 'checkbox') element.checked = draft[element.name] === element.value;
      else element.value = draft[element.name];
    });
  }
  form.addEventListener('input', save);
  form.addEventListener('change', save);
  var clear = form.querySelector('[data-clear-draft]');
  if (clear) {
    clear.hidden = false;
    clear.addEventListener('click', function () {
      localStorage.removeItem(key);
      named().forEach(function (element) {
        if (element.type === 'checkbox') element.checked = false;
        else if (element.tagName !== 'SELECT' || element.name !== 'paper') element.value = '';
      });
    });
  }
})();
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
