"""The C source of ``bcast_call``: a CPython extension whose one function,
``call(address, *arguments)``, calls a generated C function in the time
ctypes takes to convert its first argument.

Why: on a 16x16 array the arithmetic of a compiled program is nothing; what
a call costs is the checks, the result's allocation and the call into C.
Through ``ctypes`` that call took about as long as the checks and the
allocation together (docs/performance.md, "Per-call cost"), because ctypes
converts each argument through its ``argtypes`` objects and builds a
libffi frame per call. ``call`` reads each argument as the generated code
takes it: a Python int as an ``int64_t``, an ndarray as its data pointer
(read where ``c_runtime.DATA_OFFSET`` found it, the same read the fast
path made through ctypes), and calls the function through a pointer of
its arity with the GIL released, as ctypes does. ``data(array)`` is that
read alone, for the ``out=`` overlap test.

Every parameter of a generated function is a pointer or an ``int64_t``
(``c_emitter``: one pointer per array, each dynamic size after it, an
``index`` as ``int64_t``); both travel in the same 8-byte integer slots on
every 64-bit ABI bcast builds for, so one pointer type per arity,
``void (*)(intptr_t, ...)``, calls them all. ``c_runtime.own_caller`` uses
it only where pointers are 8 bytes and for at most ``MAX_ARGUMENTS``
parameters; anything else keeps ctypes."""

from __future__ import annotations

MAX_ARGUMENTS = 32
"""The most parameters ``call`` passes (a program with more keeps ctypes)."""

MODULE = "bcast_call"


def _source() -> str:
    types = "\n".join(
        f"typedef void (*f{n})({', '.join(['intptr_t'] * n) or 'void'});" for n in range(MAX_ARGUMENTS + 1))
    cases = "\n".join(
        f"    case {n}: ((f{n})function)({', '.join(f'v[{k}]' for k in range(n))}); break;"
        for n in range(MAX_ARGUMENTS + 1))
    return f"""\
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

typedef char pointers_are_8_bytes[sizeof(void *) == 8 && sizeof(intptr_t) == 8 ? 1 : -1];

static PyTypeObject *array_type = NULL;
static Py_ssize_t data_offset = -1;

{types}

static PyObject *setup(PyObject *self, PyObject *const *args, Py_ssize_t n) {{
    if (n != 2 || !PyType_Check(args[0])) {{
        PyErr_SetString(PyExc_TypeError, "setup(ndarray, data_offset)");
        return NULL;
    }}
    Py_ssize_t offset = PyLong_AsSsize_t(args[1]);
    if (offset < 0) {{
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a negative data offset");
        return NULL;
    }}
    Py_INCREF(args[0]);
    Py_XDECREF(array_type);
    array_type = (PyTypeObject *)args[0];
    data_offset = offset;
    Py_RETURN_NONE;
}}

static PyObject *call(PyObject *self, PyObject *const *args, Py_ssize_t n) {{
    intptr_t v[{MAX_ARGUMENTS} + 1];
    if (n < 1 || n - 1 > {MAX_ARGUMENTS}) {{
        PyErr_SetString(PyExc_TypeError, "call(address, *arguments): too many arguments");
        return NULL;
    }}
    void *function = PyLong_AsVoidPtr(args[0]);
    if (function == NULL) {{
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "call of a null function");
        return NULL;
    }}
    for (Py_ssize_t k = 1; k < n; k++) {{
        PyObject *o = args[k];
        if (array_type != NULL && Py_TYPE(o) == array_type) {{
            v[k - 1] = *(intptr_t *)((char *)o + data_offset);
        }} else if (PyLong_CheckExact(o)) {{
            long long x = PyLong_AsLongLong(o);
            if (x == -1 && PyErr_Occurred()) return NULL;
            v[k - 1] = (intptr_t)x;
        }} else {{
            PyErr_Format(PyExc_TypeError, "call: argument %zd is neither an int nor an ndarray", k);
            return NULL;
        }}
    }}
    Py_BEGIN_ALLOW_THREADS
    switch (n - 1) {{
{cases}
    }}
    Py_END_ALLOW_THREADS
    Py_RETURN_NONE;
}}

static PyObject *data(PyObject *self, PyObject *o) {{
    if (array_type == NULL || Py_TYPE(o) != array_type) {{
        PyErr_SetString(PyExc_TypeError, "data(ndarray)");
        return NULL;
    }}
    return PyLong_FromVoidPtr(*(void **)((char *)o + data_offset));
}}

static PyMethodDef methods[] = {{
    {{"data", (PyCFunction)data, METH_O, "data(ndarray): its data pointer"}},
    {{"setup", (PyCFunction)(void (*)(void))setup, METH_FASTCALL, "setup(ndarray, data_offset)"}},
    {{"call", (PyCFunction)(void (*)(void))call, METH_FASTCALL, "call(address, *arguments)"}},
    {{NULL, NULL, 0, NULL}},
}};

static struct PyModuleDef module = {{PyModuleDef_HEAD_INIT, "{MODULE}", NULL, -1, methods}};

PyMODINIT_FUNC PyInit_{MODULE}(void) {{ return PyModule_Create(&module); }}
"""


SOURCE = _source()
