// SPDX-License-Identifier: Apache-2.0
#include "single_instance.h"

#include <QDir>
#include <QGuiApplication>
#include <QJsonDocument>
#include <QLocalServer>
#include <QLocalSocket>
#include <QPointer>
#include <unistd.h>

namespace tsapp {

namespace {
// A request is one short JSON line; anything longer is not a client of ours.
constexpr qint64 kMaxRequest = 4 << 20;
} // namespace

QString socketPath() {
    const QString env = qEnvironmentVariable("TILESCOPE_SOCKET");
    if (!env.isEmpty()) return env;
    const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (!runtime.isEmpty() && QDir(runtime).exists())
        return runtime + QStringLiteral("/tilescope.socket");
    return QDir::tempPath() + QStringLiteral("/tilescope-%1.socket").arg(getuid());
}

bool singleInstanceWanted() {
    return qEnvironmentVariableIsSet("TILESCOPE_SOCKET") ||
           QGuiApplication::platformName() != QLatin1String("offscreen");
}

bool sendToRunningInstance(const QJsonObject& request, QJsonObject* reply, int timeoutMs) {
    QLocalSocket s;
    s.connectToServer(socketPath());
    if (!s.waitForConnected(1000)) return false;
    s.write(QJsonDocument(request).toJson(QJsonDocument::Compact) + '\n');
    if (!s.waitForBytesWritten(timeoutMs)) return false;
    QByteArray line;
    while (!line.contains('\n')) {
        if (!s.waitForReadyRead(timeoutMs)) break;
        line += s.readAll();
    }
    if (line.isEmpty()) {
        *reply = {{QStringLiteral("ok"), false},
                  {QStringLiteral("error"),
                   QStringLiteral("the running Tilescope did not answer within %1 s")
                       .arg(timeoutMs / 1000)}};
        return true;
    }
    *reply = QJsonDocument::fromJson(line.trimmed()).object();
    return true;
}

InstanceServer::InstanceServer(Handler handler, QObject* parent)
    : QObject(parent), handler_(std::move(handler)), server_(new QLocalServer(this)) {
    server_->setSocketOptions(QLocalServer::UserAccessOption);
    connect(server_, &QLocalServer::newConnection, this, &InstanceServer::accept);
}

bool InstanceServer::listen(QString* error) {
    const QString path = socketPath();
    if (server_->listen(path)) return true;
    // A socket file left by a crashed instance: nobody answers on it (sendToRunningInstance
    // already tried), so it is safe to remove.
    QLocalServer::removeServer(path);
    if (server_->listen(path)) return true;
    *error = QStringLiteral("cannot listen on %1: %2").arg(path, server_->errorString());
    return false;
}

void InstanceServer::accept() {
    while (QLocalSocket* c = server_->nextPendingConnection()) {
        connect(c, &QLocalSocket::disconnected, c, &QObject::deleteLater);
        auto buffer = std::make_shared<QByteArray>();
        connect(c, &QLocalSocket::readyRead, this, [this, c, buffer] {
            *buffer += c->readAll();
            if (buffer->size() > kMaxRequest) {
                c->abort();
                return;
            }
            const int nl = buffer->indexOf('\n');
            if (nl < 0) return;
            QJsonParseError pe;
            const QJsonDocument d = QJsonDocument::fromJson(buffer->left(nl), &pe);
            QJsonObject answer;
            if (!d.isObject())
                answer = {{QStringLiteral("ok"), false},
                          {QStringLiteral("error"),
                           QStringLiteral("not a JSON object: %1").arg(pe.errorString())}};
            else
                answer = handler_(d.object());
            buffer->clear();
            QPointer<QLocalSocket> guard(c);
            if (!guard) return;
            c->write(QJsonDocument(answer).toJson(QJsonDocument::Compact) + '\n');
            c->flush();
            c->disconnectFromServer();
        });
    }
}

} // namespace tsapp
