// SPDX-License-Identifier: Apache-2.0
// One Tilescope window per user: a second `tilescope FILE` (or `--text`) hands its request to the
// running instance over a local socket and exits, instead of opening another window.
//
// Protocol (also spoken by the Python bridge, python/tilescope/_app.py): the client writes one
// JSON object and a newline, the server answers one JSON object and a newline.
//   {"open": "/abs/path.tilescope.json"}            open a project
//   {"text": "T.Layout(...)", "name": "from python"} add a layout with this text and show it
//   {"trace": "/abs/path.log", "follow": true}       show a TileLang log in the Trace panel,
//                                                    reading on as it grows when "follow"
//   {"raise": true}                                  bring the window to the front
//   {"status": true}                                 what the window shows: "file", "layouts",
//                                                    "active", "text", and "trace" ("source",
//                                                    "following", "events", "visible")
//   answer: {"ok": true} or {"ok": false, "error": "what went wrong"}
#pragma once

#include <QJsonObject>
#include <QObject>
#include <QString>
#include <functional>

class QLocalServer;

namespace tsapp {

// The socket's path: $TILESCOPE_SOCKET, else $XDG_RUNTIME_DIR/tilescope.socket, else
// <temp>/tilescope-<uid>.socket (per user either way).
QString socketPath();

// Whether this process takes part: on a real display, or wherever TILESCOPE_SOCKET is set (an
// offscreen instance is invisible, so handing it a file would only hide the file).
bool singleInstanceWanted();

// Sends `request` to a running instance. Returns false when none answers (the caller then becomes
// the instance); otherwise true, with the answer in *reply.
bool sendToRunningInstance(const QJsonObject& request, QJsonObject* reply, int timeoutMs = 10000);

// Listens for requests and answers each with handler(request).
class InstanceServer : public QObject {
    Q_OBJECT
public:
    using Handler = std::function<QJsonObject(const QJsonObject&)>;
    InstanceServer(Handler handler, QObject* parent = nullptr);
    bool listen(QString* error);

private:
    void accept();
    Handler handler_;
    QLocalServer* server_;
};

} // namespace tsapp
