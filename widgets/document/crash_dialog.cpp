// SPDX-License-Identifier: Apache-2.0
#include "document/crash_dialog.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QVBoxLayout>

namespace tsw {

CrashReportDialog::CrashReportDialog(const crash::Report& report, QWidget* parent)
    : QDialog(parent), report_(report) {
    setObjectName(QStringLiteral("crashReportDialog"));
    setWindowTitle(QStringLiteral("Tilescope crashed"));
    auto* intro = new QLabel(
        QStringLiteral("Tilescope ended with a crash on %1. This report says where (a backtrace) "
                       "and what you did just before. Copy or save it to report the problem; "
                       "it stays in %2 until you delete it.")
            .arg(report.written.toString(QStringLiteral("yyyy-MM-dd hh:mm:ss")),
                 QFileInfo(report.file).absolutePath()));
    intro->setWordWrap(true);
    text_ = new QPlainTextEdit(report.text);
    text_->setObjectName(QStringLiteral("crashReportText"));
    text_->setReadOnly(true);
    text_->setLineWrapMode(QPlainTextEdit::NoWrap);
    text_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto* buttons = new QDialogButtonBox;
    auto* copy = buttons->addButton(QStringLiteral("&Copy"), QDialogButtonBox::ActionRole);
    auto* save = buttons->addButton(QStringLiteral("&Save As…"), QDialogButtonBox::ActionRole);
    auto* del = buttons->addButton(QStringLiteral("&Delete Report"), QDialogButtonBox::AcceptRole);
    auto* keep =
        buttons->addButton(QStringLiteral("&Keep for Later"), QDialogButtonBox::RejectRole);
    connect(copy, &QPushButton::clicked, this, &CrashReportDialog::copyReport);
    connect(save, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, QStringLiteral("Save Crash Report"),
                                                          QFileInfo(report_.file).fileName(),
                                                          QStringLiteral("Text (*.txt)"));
        if (path.isEmpty()) return;
        QString err;
        if (!saveReportAs(path, &err)) QMessageBox::warning(this, QStringLiteral("Not saved"), err);
    });
    connect(del, &QPushButton::clicked, this, [this] {
        delete_ = true;
        accept();
    });
    connect(keep, &QPushButton::clicked, this, &QDialog::reject);
    auto* v = new QVBoxLayout(this);
    v->addWidget(intro);
    v->addWidget(text_, 1);
    v->addWidget(buttons);
    resize(760, 520);
}

QString CrashReportDialog::reportText() const {
    return text_->toPlainText();
}

void CrashReportDialog::copyReport() {
    QApplication::clipboard()->setText(report_.text);
}

bool CrashReportDialog::saveReportAs(const QString& path, QString* error) {
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(report_.text.toUtf8()) < 0 || !f.commit()) {
        if (error) *error = QStringLiteral("cannot write %1: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

void offerCrashReports(QWidget* parent, const QString& directory) {
    for (const crash::Report& r : crash::pending(directory)) {
        CrashReportDialog d(r, parent);
        d.exec();
        if (d.deleteRequested()) crash::discard(r);
    }
}

} // namespace tsw
