// Search on a site opened from the file system (file://).
//
// Material for MkDocs runs its search index in a Web Worker, and browsers refuse to start a worker from
// a file:// page, so the search box never initialises there. On such pages this script replaces
// `Worker` with a stand-in that runs the worker's script in a hidden same-origin frame: the script's
// `postMessage` comes back to the page as a "message" event, and the page's `postMessage` reaches the
// script's "message" listeners. It supports what Material's search worker uses and nothing more (no
// importScripts, which only non-English search languages need). On a served site it does nothing.
(function () {
  "use strict";
  if (location.protocol !== "file:") {
    return;
  }

  class FrameWorker extends EventTarget {
    constructor(url) {
      super();
      this.pending = [];
      this.frame = document.createElement("iframe");
      this.frame.hidden = true;
      this.frame.title = "search";
      document.body.appendChild(this.frame);
      const scope = this.frame.contentWindow;
      this.scope = scope;
      scope.postMessage = (data) => {
        setTimeout(() => this.dispatchEvent(new MessageEvent("message", { data })));
      };
      const script = scope.document.createElement("script");
      script.src = String(url);
      script.onload = () => {
        const waiting = this.pending;
        this.pending = null;
        waiting.forEach((data) => this.postMessage(data));
      };
      scope.document.body.appendChild(script);
    }

    postMessage(data) {
      if (this.pending !== null) {
        this.pending.push(data);
        return;
      }
      setTimeout(() => this.scope.dispatchEvent(new this.scope.MessageEvent("message", { data })));
    }

    terminate() {
      this.frame.remove();
    }
  }

  window.Worker = FrameWorker;
})();
