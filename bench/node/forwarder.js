"use strict";
// seeds/004's forwarder, as the article describes it: an Express app that takes a JSON POST
// from PHP (fsockopen, fwrite, fclose), answers at once, and POSTs the body on to the real
// destination with Node's own http(s) module, without waiting and without keeping it anywhere
// but in memory. Nothing is retried and nothing is written down: a request in flight when the
// process dies (kill -9, OOM, deploy) is gone, and the PHP caller, which never reads the answer,
// cannot tell. Written for the benchmark (bench/Relay/NodeForwarder.php starts it).
//
// Settings come from the environment, so the bench needs no fixed port:
//   FORWARD_URL  where every POST goes (the article: its Firebase endpoint, chosen by the path)
//   PORT         port on 127.0.0.1 to listen on; 0 (default) picks a free one
// The bound port is printed as "listening <port>" on stdout. The rig's CA is given with Node's
// own NODE_EXTRA_CA_CERTS.
const express = require("express");
const http = require("http");
const https = require("https");

const target = new URL(process.env.FORWARD_URL || "");
const transport = target.protocol === "https:" ? https : http;

// The one change to the article's forwarding: the caller's query string is passed on, so the
// bench can count each request at the destination by its id.
function destination(originalUrl) {
  const url = new URL(target);
  const query = originalUrl.indexOf("?");
  if (query !== -1) {
    url.search = url.search + (url.search === "" ? "" : "&") + originalUrl.slice(query + 1);
  }
  return url;
}

function forward(url, data) {
  const request = transport.request(url, {
    method: "POST",
    timeout: 2000,
    headers: {
      "Content-Type": "application/json",
      "Content-Length": Buffer.byteLength(data),
    },
  });
  // As in the article: no 'response' listener (Node then discards the answer) and only a log
  // line on error; the timeout option only reports a stalled socket, it does not abort.
  request.on("error", (error) => console.error(`forward failed: ${error.message}`));
  request.end(data);
}

const app = express();
app.use(express.json());
app.post("*", (req, res) => {
  forward(destination(req.originalUrl), JSON.stringify(req.body));
  res.json();
});

const server = app.listen(Number(process.env.PORT || 0), "127.0.0.1", () => {
  console.log(`listening ${server.address().port}`);
});
