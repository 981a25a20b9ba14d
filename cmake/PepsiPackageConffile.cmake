# SPDX-License-Identifier: AGPL-3.0-or-later
# CPack pre-build script: the example configuration becomes the conffile
# /etc/pepsi/pepsi.conf of the pepsi-dispatch package (dpkg keeps an
# administrator's edits to it). Packed per component, the staging tree has one
# directory per component: the file goes into the server's only.
if(NOT CPACK_TEMPORARY_INSTALL_DIRECTORY OR NOT PEPSI_CONF_EXAMPLE)
  message(FATAL_ERROR "PepsiPackageConffile: run by cpack only")
endif()
set(staging "${CPACK_TEMPORARY_INSTALL_DIRECTORY}")
if(IS_DIRECTORY "${staging}/server")
  set(staging "${staging}/server")
endif()
file(MAKE_DIRECTORY "${staging}/etc/pepsi")
file(COPY_FILE "${PEPSI_CONF_EXAMPLE}" "${staging}/etc/pepsi/pepsi.conf")
