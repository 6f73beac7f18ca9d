"""The exceptions a kernel run on the emulator raises.

Every fault of a run (an access outside its buffer, an address in no buffer, a
misaligned access, a store into a read-only argument, a failed
``tl.device_assert``) is raised after the run as one exception of a class below,
carrying where it happened: the kernel, the Python file and line of the
operation (and the lines of the ``@triton.jit`` helpers it was inlined from),
the program id, the lane, the argument by its parameter name and the byte
offset.
"""


class EmulatorError(RuntimeError):
    """A kernel run on the emulator failed.  Attributes (None when unknown):

    kernel       the kernel's name
    file, line   the Python source of the operation that failed
    called_from  "file:line" of the call sites of the helpers it was inlined from
    pid          the program id (x, y, z)
    lane         the flat index of the element in the operation's tensor
    arg          the parameter name of the argument accessed
    offset       the byte offset from the start of that argument's array
    op           the TTIR operation ("tt.load")
    nfaults      how many programs faulted
    """

    def __init__(self, message, kernel=None, file=None, line=None, called_from=None, pid=None, lane=None,
                 arg=None, offset=None, op=None, nfaults=None, access_bytes=None):
        super().__init__(message)
        self.kernel, self.file, self.line, self.called_from = kernel, file, line, called_from
        self.pid, self.lane, self.arg, self.offset, self.op = pid, lane, arg, offset, op
        self.nfaults, self.access_bytes = nfaults, access_bytes


class OutOfBoundsError(EmulatorError, IndexError):
    """A lane loaded, stored or did an atomic outside the array its pointer came from."""


class InvalidAddressError(EmulatorError):
    """A lane accessed an address in no argument's array (a null or forged pointer)."""


class MisalignedAccessError(EmulatorError):
    """A lane accessed an address not aligned to the size of the access."""


class ReadOnlyError(EmulatorError):
    """A store or atomic into an argument the kernel declared constant."""


class DeviceAssertionError(EmulatorError, AssertionError):
    """``tl.device_assert`` (or ``assert`` in a kernel) failed; the message is the assertion's."""


class UnsupportedError(EmulatorError, NotImplementedError):
    """The kernel uses an operation or type the emulator cannot execute."""


class StepBudgetError(EmulatorError):
    """A program ran more loop iterations than the step budget allows (an endless loop?)."""


class DeadlockError(EmulatorError):
    """Every program left waits (spins on an atomic) for a value no program will change:
    on the GPU the launch would hang.  The line is the wait of the lowest such program."""


class CompilationError(EmulatorError):
    """The kernel's TTIR could not be read or compiled by the emulator (or lowered by Triton)."""


class SpecializationChurnWarning(UserWarning):
    """An argument's specialization (divisible by 16 or not, equal to 1 or not) keeps
    changing between launches, so each launch may compile again: pass it in
    ``do_not_specialize`` (or ``do_not_specialize_on_alignment``).  Issued once per
    kernel and argument, as ct_launch reports it from C."""


class ReductionOrderWarning(UserWarning):
    """The layouts of Triton's TTGIR did not match the kernel's reductions and scans (Triton's
    passes restructured them), so the emulator ran them in its default order: float sums may
    differ from the GPU's in the last bits.  Issued once per compiled specialization."""
