// SPDX-License-Identifier: Apache-2.0
// analyzeBanks (see bank_analysis.h).
#include "banks/bank_analysis.h"

#include "banks/bank_overlays.h"

#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"

namespace tsw {

BankAnalysis analyzeBanks(const BankInput& in, const CancelToken& token) {
    BankAnalysis r;
    try {
        const std::string text = in.layoutText.toStdString();
        const std::string named = ts::mappingDtype(text);
        r.dtypeFromText = !named.empty();
        r.dtype = r.dtypeFromText ? QString::fromStdString(named) : in.dtype;
        ts::Mapping m = ts::parseMapping(text);
        const ts::Layout* l = std::get_if<ts::Layout>(&m);
        if (!l)
            throw ts::InputError("the shared layout must be a T.Layout (a fragment goes in "
                                 "the access as fragment:...)");
        if (token.cancelled()) {
            r.cancelled = true;
            return r;
        }
        auto tile = std::make_shared<ts::SharedTile>(*l, r.dtype.toStdString());
        QStringList dims;
        for (std::int64_t e : tile->shape())
            dims << QString::number(e);
        r.shape = dims.join(QStringLiteral(" x "));
        std::string access = in.accessText.trimmed().toStdString();
        if (in.autoAccess) {
            std::string why;
            access = ts::defaultAccess(*tile, &why);
            r.accessWhy = QString::fromStdString(why);
        }
        r.access = QString::fromStdString(access);
        ts::AccessOptions o;
        o.vector = in.vector;
        o.store = in.store;
        std::shared_ptr<ts::SharedAccess> plan;
        try {
            plan = std::make_shared<ts::SharedAccess>(ts::buildAccess(*tile, access, o));
        } catch (const ts::ParseError& e) {
            // The column is into the part of the access that was parsed (a lambda, a mapping):
            // say it in the access field's own columns.
            const QString src = QString::fromStdString(e.source());
            const qsizetype at = src.isEmpty() ? -1 : QString::fromStdString(access).indexOf(src);
            qsizetype lead = 0;
            while (lead < in.accessText.size() && in.accessText[lead].isSpace())
                ++lead;
            const QString where =
                e.column() && at >= 0
                    ? QStringLiteral("access, column %1: ").arg(qsizetype(e.column()) + at + lead)
                    : QStringLiteral("access: ");
            throw ts::InputError(where.toStdString() + e.message());
        } catch (const std::bad_alloc&) {
            throw;
        } catch (const std::exception&) {
            r.accessMisfit = !in.autoAccess;
            throw;
        }
        if (token.cancelled()) {
            r.cancelled = true;
            return r;
        }
        r.cost = ts::analyzePlan(plan->plan);
        // The heat grid's cells are labelled with their bank (two digits fit small cells; a
        // click highlights every cell of that bank).
        std::vector<std::int64_t> banks(std::size_t(tile->cells()));
        const int bw = plan->plan.bank_width, nb = plan->plan.bank_count;
        for (std::int64_t c = 0; c < tile->cells(); ++c)
            banks[std::size_t(c)] = tile->addressOfCell(c) / bw % nb;
        r.grid = tableGrid(tile->shape(), 1, std::move(banks), {nb}, ViewMode::Input);
        r.tile = std::move(tile);
        r.plan = std::move(plan);
        r.ok = true;
    } catch (const std::bad_alloc&) {
        r.error = QStringLiteral("out of memory while analysing this layout");
    } catch (const std::exception& e) {
        r.error = QString::fromUtf8(e.what()).split(QLatin1Char('\n')).first();
    }
    return r;
}

} // namespace tsw
