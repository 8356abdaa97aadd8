"""The one thing pyproject.toml cannot say: which packages to install.

pyproject.toml maps the folders server/, client/ and shared/ to the import names
boardroom.server, boardroom.client and boardroom.shared
([tool.setuptools.package-dir]); setuptools' discovery cannot add that prefix, so
the packages found in the folders are listed here, under their installed names.
Everything else is in pyproject.toml.
"""

from setuptools import find_packages, setup

FOLDERS = ("server", "client", "shared")

setup(
    packages=[
        f"boardroom.{name}" for name in find_packages(include=[f"{folder}*" for folder in FOLDERS])
    ],
)
