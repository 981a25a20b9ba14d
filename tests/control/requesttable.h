// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

class DirectServerFixture;

// The request tables of the control socket's tests (tst_controlserver: the
// read commands and bad input; tst_controlmessages: messages and message;
// tst_controladmin: the admin commands' arguments). A row is one request line
// and what its reply must say; every table has the same columns and is run the
// same way.

// line (QByteArray), ok (bool), path (QString: where in the reply to look;
// unused for errors), expected (QByteArray: the JSON value at path, or a piece
// of the error).
void addRequestColumns();

// Sends `line` on a connection of its own and checks the reply against the
// row; then that the id came back (even with an error) and that the
// connection is still usable.
void verifyRequest(DirectServerFixture &daemon, const QByteArray &line, bool ok, const QString &path,
                   const QByteArray &expected);
