# SPDX-License-Identifier: AGPL-3.0-or-later
# CPack pre-build script: the example configuration becomes the package's
# conffile /etc/pepsi/pepsi.conf (dpkg keeps an administrator's edits to it).
if(NOT CPACK_TEMPORARY_INSTALL_DIRECTORY OR NOT PEPSI_CONF_EXAMPLE)
  message(FATAL_ERROR "PepsiPackageConffile: run by cpack only")
endif()
file(MAKE_DIRECTORY "${CPACK_TEMPORARY_INSTALL_DIRECTORY}/etc/pepsi")
file(COPY_FILE "${PEPSI_CONF_EXAMPLE}" "${CPACK_TEMPORARY_INSTALL_DIRECTORY}/etc/pepsi/pepsi.conf")
