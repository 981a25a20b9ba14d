# SPDX-License-Identifier: AGPL-3.0-or-later
# `cpack -G DEB` in the build directory: one package, pepsi-dispatch, with
# everything `cmake --install` lays out under /usr, the example configuration
# as the conffile /etc/pepsi/pepsi.conf, and maintainer scripts that create
# the pepsi system account and enable nothing (resources/debian/).

set(CPACK_PACKAGE_NAME "pepsi-dispatch")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_VENDOR "PEPSI")
set(CPACK_PACKAGE_CONTACT "PEPSI maintainers <root@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "PEPSI dispatcher: drives queued messages through pipeline stages")
string(CONCAT CPACK_PACKAGE_DESCRIPTION
    "pepsi-dispatch claims queued rows of a PostgreSQL work queue and feeds them to\n"
    "persistent worker processes, one elastic pool per stage. The package has the\n"
    "daemon and its systemd units (installed disabled), pepsi-schema, the admin\n"
    "console pepsi-console, a reference stage program and the manual pages.")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_GENERATOR "DEB")
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "net")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The QPSQL driver is a plugin that dpkg-shlibdeps cannot see; adduser makes
# the account; the console's offscreen/xcb platform comes with Qt's GUI library.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6sql6-psql, adduser")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "postgresql (>= 15)")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
    "${PROJECT_SOURCE_DIR}/resources/debian/conffiles"
    "${PROJECT_SOURCE_DIR}/resources/debian/postinst"
    "${PROJECT_SOURCE_DIR}/resources/debian/prerm"
    "${PROJECT_SOURCE_DIR}/resources/debian/postrm")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

# /etc/pepsi/pepsi.conf exists only in the package (a plain install keeps the
# example under share/pepsi): added to the staging tree before it is packed.
set(CPACK_PRE_BUILD_SCRIPTS "${PROJECT_SOURCE_DIR}/cmake/PepsiPackageConffile.cmake")
set(PEPSI_CONF_EXAMPLE "${PROJECT_SOURCE_DIR}/resources/pepsi.conf.example")
set(CPACK_PROJECT_CONFIG_FILE "${PROJECT_BINARY_DIR}/PepsiCPackOptions.cmake")
file(GENERATE OUTPUT "${PROJECT_BINARY_DIR}/PepsiCPackOptions.cmake"
     CONTENT "set(PEPSI_CONF_EXAMPLE \"${PEPSI_CONF_EXAMPLE}\")\n")

include(CPack)
