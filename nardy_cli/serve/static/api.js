// The page's calls to /api/v1: JSON in and out; an error answer becomes an Error with the
// server's message (which names the field at fault).
"use strict";
const Api = (() => {
  async function call(method, path, body) {
    const init = {method, headers: {}};
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const r = await fetch("/api/v1" + path, init);
    const data = await r.json().catch(() => ({error: `HTTP ${r.status}`}));
    if (!r.ok) {
      const e = new Error(data.error || `HTTP ${r.status}`);
      e.status = r.status; e.field = data.field;
      throw e;
    }
    return data;
  }
  return {
    post: (path, body) => call("POST", path, body || {}),
    get: path => call("GET", path),
  };
})();
