// Qt's side of `ecmascript-bench`: the same two charts (`../charts/counter.scxml` and Qt's
// original `../charts/sudoku.scxml` with `sudoku.js`) compiled by Qt's `qscxmlc` and run by
// QScxmlStateMachine with its ECMAScript datamodel (QJSEngine), timed the way the Rust
// benchmark times ours: after a warm-up of 1,000 events, µs per `tick` of the counter and
// µs per `tap` on the next empty cell of Qt's example grid, each tap answered by an
// `updateGUI` event whose `currentState` a connected observer reads (as Qt's window does).
//
// Not part of the Cargo build: `build.sh OUTDIR` builds it where Qt 6 (Core, Qml, Scxml)
// and its `qscxmlc` are installed. Prints two lines, `counter US` and `tap US`.
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QScxmlEvent>
#include <QScxmlStateMachine>
#include <QVariant>
#include <cstdio>
#include <cstdlib>

#include "counter.h"
#include "sudoku.h"

// Runs the machine's queued work: QScxmlStateMachine processes submitted events from the
// event loop.
static void settle() { QCoreApplication::processEvents(); }

// One counter event, and one tap on cell (x, y): functions of their own, so that a profile
// can collect only them (`valgrind --tool=callgrind --toggle-collect='*tap_cell*'`).
__attribute__((noinline)) static void tick_counter(Counter &counter) {
    counter.submitEvent(QStringLiteral("tick"));
    settle();
}

__attribute__((noinline)) static void tap_cell(Sudoku &sudoku, int x, int y) {
    sudoku.submitEvent(QStringLiteral("tap"),
                       QVariantMap{{QStringLiteral("x"), x}, {QStringLiteral("y"), y}});
    settle();
}

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    const int events = argc > 1 ? std::atoi(argv[1]) : 200000;
    const char *grid_file = argc > 2 ? argv[2] : "sudoku.data";

    Counter counter;
    counter.start();
    settle();
    for (int i = 0; i < 1000; ++i)
        tick_counter(counter);
    QElapsedTimer t;
    t.start();
    for (int i = 0; i < events; ++i)
        tick_counter(counter);
    const double counter_us = t.nsecsElapsed() / 1e3 / events;
    if (counter.dataModel()->scxmlProperty(QStringLiteral("count")).toInt() != events + 1000) {
        std::fprintf(stderr, "the counter missed ticks\n");
        return 1;
    }

    // Qt's example grid: 9 lines of 9 comma-separated digits.
    QFile file(QString::fromLocal8Bit(grid_file));
    if (!file.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "cannot read %s\n", grid_file);
        return 1;
    }
    QVariantList grid;
    QList<QPair<int, int>> empty;
    for (const QByteArray &line : file.readAll().split('\n')) {
        if (line.trimmed().isEmpty())
            continue;
        QVariantList row;
        for (const QByteArray &d : line.split(','))
            row.append(d.trimmed().toInt());
        for (int y = 0; y < row.size(); ++y)
            if (row[y].toInt() == 0)
                empty.append({int(grid.size()), y});
        grid.append(QVariant(row));
    }

    Sudoku sudoku;
    long updates = 0;
    sudoku.connectToEvent(QStringLiteral("updateGUI"), &app, [&](const QScxmlEvent &e) {
        // What Qt's window reads: the current grid.
        if (e.data().toMap().value(QStringLiteral("currentState")).toList().size() == 9)
            ++updates;
    });
    sudoku.start();
    settle();
    sudoku.submitEvent(QStringLiteral("setup"), QVariantMap{{QStringLiteral("initState"), grid}});
    settle();
    sudoku.submitEvent(QStringLiteral("start"));
    settle();
    int next = 0;
    auto tap = [&] {
        const auto [x, y] = empty[next++ % empty.size()];
        tap_cell(sudoku, x, y);
    };
    for (int i = 0; i < 1000; ++i)
        tap();
    updates = 0;
    const int taps = events / 10 > 0 ? events / 10 : 1;
    t.restart();
    for (int i = 0; i < taps; ++i)
        tap();
    const double tap_us = t.nsecsElapsed() / 1e3 / taps;
    if (updates != taps) {
        std::fprintf(stderr, "%ld updates for %d taps\n", updates, taps);
        return 1;
    }
    std::printf("counter %.3f\ntap %.3f\n", counter_us, tap_us);
    return 0;
}
