"""The documented examples run and hold: the package docstring, the compiled module's
docstrings (what help() shows) and the type stubs' docstrings (what editors show)."""

import ast
import doctest
import pathlib

import primekit
import primekit._primekit

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def test_package_doctests():
    result = doctest.testmod(primekit, optionflags=FLAGS)
    assert result.attempted >= 8 and result.failed == 0


def test_compiled_module_doctests():
    result = doctest.testmod(primekit._primekit, optionflags=FLAGS)
    # check_dh, check_rsa, generate_dh_params carry examples.
    assert result.attempted >= 12 and result.failed == 0


def stub_docstrings():
    """(name, docstring) of every function and class in the installed _primekit.pyi."""
    stub = pathlib.Path(primekit._primekit.__file__).with_name("_primekit.pyi")
    tree = ast.parse(stub.read_text())
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            doc = ast.get_docstring(node, clean=True)
            if doc:
                yield node.name, doc


def test_stub_doctests():
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=FLAGS)
    attempted = 0
    for name, doc in stub_docstrings():
        test = parser.get_doctest(doc, {}, f"_primekit.pyi:{name}", None, 0)
        result = runner.run(test)
        assert result.failed == 0, name
        attempted += result.attempted
    assert attempted >= 15


def test_stubs_and_marker_ship_with_the_package():
    here = pathlib.Path(primekit.__file__).parent
    assert (here / "py.typed").is_file()
    names = {name for name, _ in stub_docstrings()}
    compiled = ("primekit", "primekit._primekit")  # pyclasses say "primekit"
    public = {n for n in primekit.__all__ if callable(getattr(primekit, n)) and getattr(getattr(primekit, n), "__module__", "") in compiled}
    assert {"check_dh", "DhParameters", "InputError", "RsaPrivateKey"} <= public
    # Every public function and class of the compiled module has a stub with a docstring.
    assert public <= names, public - names


def stub_names():
    """Every top-level name the installed _primekit.pyi declares."""
    stub = pathlib.Path(primekit._primekit.__file__).with_name("_primekit.pyi")
    names = set()
    for node in ast.parse(stub.read_text()).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
    return names


def test_public_api():
    # The compiled module's names, each declared in the stubs, plus the report types.
    assert set(primekit.__all__) == stub_names() | {"Check", "CheckReport", "Status"}
    assert {"check_dh", "check_rsa", "generate_dh_params", "DhParameters", "InputError", "prove"} <= set(primekit.__all__)
    for name in primekit.__all__:
        assert getattr(primekit, name) is not None
        assert getattr(primekit._primekit, name, None) is not None or name in ("Check", "CheckReport", "Status")
