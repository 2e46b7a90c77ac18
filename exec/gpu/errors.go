package gpu

import "errors"

// ErrUnsupported is wrapped by every error that says a plan (or one of its
// operators) cannot run on the GPU yet; errors.Is(err, ErrUnsupported)
// tells it from a failure. The message reads "gpu: operator X not
// supported on the GPU yet: why".
var ErrUnsupported = errors.New("not supported on the GPU yet")
