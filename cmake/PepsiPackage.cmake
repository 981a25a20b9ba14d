# SPDX-License-Identifier: AGPL-3.0-or-later
# `cpack -G DEB` in the build directory: two packages, split as Debian would
# split them, from the install components of the tree:
#   pepsi-dispatch (component server): the daemon, pepsi-ctl, pepsi-schema,
#     the systemd units (installed disabled), the reference stage, their man
#     pages, the bash completion, the schema files and the example
#     configuration as the conffile /etc/pepsi/pepsi.conf; maintainer scripts
#     create the pepsi system account and enable nothing (resources/debian/).
#     Qt Core, Sql and Network only: nothing of Qt Gui or Widgets (nor X or
#     GL) comes onto a headless host with it (tests/package/check-package).
#   pepsi-console (component console): the Qt Widgets admin console, its
#     desktop entry, icon and man page (its translations are compiled in).

set(CPACK_PACKAGE_NAME "pepsi-dispatch")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_VENDOR "PEPSI")
set(CPACK_PACKAGE_CONTACT "PEPSI maintainers <root@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_GENERATOR "DEB")
set(CPACK_STRIP_FILES ON)

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL server console)
set(CPACK_COMPONENTS_GROUPING IGNORE) # one package per component

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

set(CPACK_DEBIAN_SERVER_PACKAGE_NAME "pepsi-dispatch")
set(CPACK_DEBIAN_SERVER_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_SERVER_PACKAGE_SECTION "net")
string(CONCAT CPACK_COMPONENT_SERVER_DESCRIPTION
    "PEPSI dispatcher: drives queued messages through pipeline stages\n"
    "pepsi-dispatch claims queued rows of a PostgreSQL work queue and feeds them to\n"
    "persistent worker processes, one elastic pool per stage. The package has the\n"
    "daemon and its systemd units (installed disabled), pepsi-ctl (the command-line\n"
    "client of its control socket), pepsi-schema, a reference stage program and the\n"
    "manual pages. It needs no display: the admin console is pepsi-console.")
# The QPSQL driver is a plugin that dpkg-shlibdeps cannot see; adduser makes the account.
set(CPACK_DEBIAN_SERVER_PACKAGE_DEPENDS "libqt6sql6-psql, adduser")
set(CPACK_DEBIAN_SERVER_PACKAGE_SUGGESTS "postgresql (>= 15), pepsi-console")
set(CPACK_DEBIAN_SERVER_PACKAGE_CONTROL_EXTRA
    "${PROJECT_SOURCE_DIR}/resources/debian/conffiles"
    "${PROJECT_SOURCE_DIR}/resources/debian/postinst"
    "${PROJECT_SOURCE_DIR}/resources/debian/prerm"
    "${PROJECT_SOURCE_DIR}/resources/debian/postrm")

set(CPACK_DEBIAN_CONSOLE_PACKAGE_NAME "pepsi-console")
set(CPACK_DEBIAN_CONSOLE_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_CONSOLE_PACKAGE_SECTION "admin")
string(CONCAT CPACK_COMPONENT_CONSOLE_DESCRIPTION
    "PEPSI admin console (Qt Widgets)\n"
    "pepsi-console shows a running pepsi-dispatch on this host (its stage pools,\n"
    "workers, queues and rates) and drains, resumes and requeues, over the\n"
    "daemon's local control socket.")
# The console's offscreen/xcb platform comes with Qt's GUI library (shlibdeps).
set(CPACK_DEBIAN_CONSOLE_PACKAGE_RECOMMENDS "pepsi-dispatch")
# Up to 0.1.0 one package pepsi-dispatch carried the console too: upgrading
# such a host moves the console's files to this package without dpkg refusing
# to overwrite them.
set(CPACK_DEBIAN_CONSOLE_PACKAGE_REPLACES "pepsi-dispatch (<< 0.2.0)")
set(CPACK_DEBIAN_CONSOLE_PACKAGE_BREAKS "pepsi-dispatch (<< 0.2.0)")

# /etc/pepsi/pepsi.conf exists only in the package (a plain install keeps the
# example under share/pepsi): added to the staging tree before it is packed.
set(CPACK_PRE_BUILD_SCRIPTS "${PROJECT_SOURCE_DIR}/cmake/PepsiPackageConffile.cmake")
set(PEPSI_CONF_EXAMPLE "${PROJECT_SOURCE_DIR}/resources/pepsi.conf.example")
set(CPACK_PROJECT_CONFIG_FILE "${PROJECT_BINARY_DIR}/PepsiCPackOptions.cmake")
file(GENERATE OUTPUT "${PROJECT_BINARY_DIR}/PepsiCPackOptions.cmake"
     CONTENT "set(PEPSI_CONF_EXAMPLE \"${PEPSI_CONF_EXAMPLE}\")\n")

include(CPack)
