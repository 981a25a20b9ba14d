# SPDX-License-Identifier: AGPL-3.0-or-later
# Install layout (GNU directories under CMAKE_INSTALL_PREFIX) of what is not a
# target: schema files, the example configuration, the Python example stage,
# systemd units. Programs install with their targets, man pages with doc/,
# the console's desktop entry and icon with console/ (its translations are
# compiled in). tests/package/check-install holds the expected tree.

# Relative to the prefix: /usr/lib/systemd/system for the package (the same
# directory as /lib/systemd/system on a merged-/usr Debian 12).
set(PEPSI_SYSTEMD_UNIT_DIR "lib/systemd/system" CACHE STRING
    "Where the systemd units go, relative to the prefix unless absolute")
set(pepsi_unit_dir "${PEPSI_SYSTEMD_UNIT_DIR}")

install(FILES resources/pepsi.conf.example DESTINATION ${CMAKE_INSTALL_DATADIR}/pepsi COMPONENT server)
install(DIRECTORY resources/sql DESTINATION ${CMAKE_INSTALL_DATADIR}/pepsi COMPONENT server)
# The Python stage program of doc/stage-examples.rst.
install(PROGRAMS stagekit/example/pepsi-stage-example.py DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples COMPONENT server)

# The units name /usr/bin/pepsi-dispatch (so that the sources verify as they
# are); an install under another prefix (given at install time, as cpack and
# `cmake --install --prefix` do) gets its own path.
foreach(unit pepsi-dispatch.service pepsi-dispatch@.service)
  install(CODE "
    set(unit_dir \"${pepsi_unit_dir}\")
    if(NOT IS_ABSOLUTE \"\${unit_dir}\")
      set(unit_dir \"\${CMAKE_INSTALL_PREFIX}/\${unit_dir}\")
    endif()
    file(READ \"${PROJECT_SOURCE_DIR}/resources/systemd/${unit}\" text)
    string(REPLACE \"/usr/bin/pepsi-dispatch\" \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/pepsi-dispatch\" text \"\${text}\")
    message(STATUS \"Installing: \$ENV{DESTDIR}\${unit_dir}/${unit}\")
    file(WRITE \"\$ENV{DESTDIR}\${unit_dir}/${unit}\" \"\${text}\")
  " COMPONENT server)
endforeach()
