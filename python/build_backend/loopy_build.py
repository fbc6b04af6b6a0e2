"""The package's own build backend (PEP 517), so that ``pip install ./python``
works offline: it needs nothing but the Python standard library, where the
usual backend (setuptools) would be downloaded into pip's isolated build
environment.  The package is pure Python (it loads libloopy by ctypes), so a
wheel is a zip of ``loopy/*.py`` and its metadata, and an sdist a tarball
of this folder's sources.  Name, version and the rest are read from
pyproject.toml's [project] table.
"""
import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

_HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _project():
    """The [project] table's plain fields and optional dependencies."""
    with open(os.path.join(_HERE, "pyproject.toml"), encoding="utf-8") as f:
        text = f.read()
    try:
        import tomllib  # Python 3.11
        data = tomllib.loads(text)["project"]
    except ImportError:
        data = {}
        section = None
        for line in text.splitlines():
            head = re.match(r"^\[(.+)\]\s*$", line)
            if head:
                section = head.group(1)
                continue
            field = re.match(r'^([A-Za-z_-]+)\s*=\s*(.+?)\s*$', line)
            if field is None:
                continue
            key, value = field.groups()
            if section == "project" and value.startswith('"'):
                data[key] = value.strip('"')
            elif section == "project.optional-dependencies":
                data.setdefault("optional-dependencies", {})[key] = re.findall(
                    r'"([^"]+)"', value)
    return data


def _dist_name(project):
    return re.sub(r"[-_.]+", "_", project["name"])


def _metadata(project):
    lines = [
        "Metadata-Version: 2.1",
        "Name: " + project["name"],
        "Version: " + project["version"],
        "Summary: " + project.get("description", ""),
        "Requires-Python: " + project.get("requires-python", ">=3"),
    ]
    for extra, requirements in sorted(project.get("optional-dependencies", {}).items()):
        lines.append("Provides-Extra: " + extra)
        for requirement in requirements:
            lines.append('Requires-Dist: %s; extra == "%s"' % (requirement, extra))
    lines.append("Description-Content-Type: text/markdown")
    readme = os.path.join(_HERE, project.get("readme", "README.md"))
    body = ""
    if os.path.exists(readme):
        with open(readme, encoding="utf-8") as f:
            body = f.read()
    return "\n".join(lines) + "\n\n" + body


def _sources():
    """The package's files: loopy/*.py, sorted, as (path in the archive,
    path on disk)."""
    folder = os.path.join(_HERE, "loopy")
    return [("loopy/" + name, os.path.join(folder, name))
            for name in sorted(os.listdir(folder))
            if name.endswith(".py") and name != "_install.py"]


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    project = _project()
    info = "%s-%s.dist-info" % (_dist_name(project), project["version"])
    os.makedirs(os.path.join(metadata_directory, info), exist_ok=True)
    with open(os.path.join(metadata_directory, info, "METADATA"), "w",
              encoding="utf-8") as f:
        f.write(_metadata(project))
    return info


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest())
    return "%s,sha256=%s,%d" % (path, digest.rstrip(b"=").decode(), len(data))


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    project = _project()
    dist = _dist_name(project)
    name = "%s-%s-py3-none-any.whl" % (dist, project["version"])
    info = "%s-%s.dist-info" % (dist, project["version"])
    files = []
    for arcname, path in _sources():
        with open(path, "rb") as f:
            files.append((arcname, f.read()))
    files.append((info + "/METADATA", _metadata(project).encode("utf-8")))
    files.append((info + "/WHEEL", b"Wheel-Version: 1.0\nGenerator: loopy_build\n"
                  b"Root-Is-Purelib: true\nTag: py3-none-any\n"))
    files.append((info + "/top_level.txt", b"loopy\n"))
    record = [_record_line(p, d) for p, d in files] + [info + "/RECORD,,"]
    files.append((info + "/RECORD", ("\n".join(record) + "\n").encode()))
    target = os.path.join(wheel_directory, name)
    with zipfile.ZipFile(target + ".tmp", "w", zipfile.ZIP_DEFLATED) as z:
        for arcname, data in files:
            # A fixed date: the same sources give the same wheel.
            entry = zipfile.ZipInfo(arcname, date_time=(1980, 1, 1, 0, 0, 0))
            entry.external_attr = 0o644 << 16
            z.writestr(entry, data, zipfile.ZIP_DEFLATED)
    os.replace(target + ".tmp", target)
    return name


def build_sdist(sdist_directory, config_settings=None):
    project = _project()
    base = "%s-%s" % (_dist_name(project), project["version"])
    name = base + ".tar.gz"
    members = [("pyproject.toml", os.path.join(_HERE, "pyproject.toml")),
               ("README.md", os.path.join(_HERE, "README.md")),
               ("build_backend/loopy_build.py", os.path.abspath(__file__))]
    members += _sources()
    target = os.path.join(sdist_directory, name)
    with tarfile.open(target + ".tmp", "w:gz", format=tarfile.PAX_FORMAT) as t:
        for arcname, path in members:
            with open(path, "rb") as f:
                data = f.read()
            entry = tarfile.TarInfo(base + "/" + arcname)
            entry.size = len(data)
            entry.mode = 0o644
            t.addfile(entry, io.BytesIO(data))
    os.replace(target + ".tmp", target)
    return name
