# SPDX-License-Identifier: MIT
"""qt_probe.py — a Qt 5 client for the corpus (python3-pyqt5, QT_QPA_PLATFORM=xcb):
opens a window, puts text on the clipboard, grabs a corner of the root window and
prints what it saw and the screen's geometry, then quits."""
import sys

from PyQt5.QtCore import QTimer
from PyQt5.QtWidgets import QApplication, QLabel


def main():
    app = QApplication(sys.argv)
    label = QLabel("hello from qt")
    label.setWindowTitle("corpus-qt")
    label.resize(200, 100)
    label.show()

    def step():
        clipboard = app.clipboard()
        clipboard.setText("qt clipboard text")
        print("clipboard:", clipboard.text())
        screen = app.primaryScreen()
        print("screen", screen.size().width(), screen.size().height(), screen.depth())
        print("root pixel", hex(screen.grabWindow(0, 600, 400, 4, 4).toImage().pixel(0, 0)))
        app.quit()

    QTimer.singleShot(200, step)
    status = app.exec_()
    print("done", status)


main()
