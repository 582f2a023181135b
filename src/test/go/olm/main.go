// Command validate-bundle runs operator-framework/api's validators on an operator bundle (a folder holding
// manifests/ and metadata/), prints every error and warning, and exits 1 when any validator reports an error.
package main

import (
	"fmt"
	"os"

	"github.com/operator-framework/api/pkg/manifests"
	"github.com/operator-framework/api/pkg/validation"
	"github.com/operator-framework/api/pkg/validation/errors"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: validate-bundle BUNDLE_DIR")
		os.Exit(2)
	}
	dir := os.Args[1]
	bundle, err := manifests.GetBundleFromDir(dir)
	if err != nil {
		fmt.Printf("ERROR %s: the bundle does not load: %v\n", dir, err)
		os.Exit(1)
	}
	objects := bundle.ObjectsToValidate()
	// the optional key of the deprecated-API checks: the oldest Kubernetes the CSV says it runs on
	objects = append(objects, map[string]string{"k8s-version": bundle.CSV.Spec.MinKubeVersion})
	// the default bundle validators, plus those of OperatorHub's metadata and good practices; the multi-architecture
	// one pulls the images and the community one is deprecated, so neither runs here
	validators := validation.DefaultBundleValidators.WithValidators(
		validation.OperatorHubV2Validator,
		validation.StandardCapabilitiesValidator,
		validation.StandardCategoriesValidator,
		validation.GoodPracticesValidator,
		validation.ObjectValidator,
		validation.AlphaDeprecatedAPIsValidator,
	)
	failures, warnings := 0, 0
	for _, result := range validators.Validate(objects...) {
		failures += report("ERROR", result.Name, result.Errors)
		warnings += report("WARNING", result.Name, result.Warnings)
	}
	fmt.Printf("validated bundle %s (CSV %s): %d errors, %d warnings\n", dir, bundle.CSV.GetName(), failures, warnings)
	if failures > 0 {
		os.Exit(1)
	}
}

func report(level string, name string, found []errors.Error) int {
	for _, e := range found {
		fmt.Printf("%s %s: %s\n", level, name, e.Error())
	}
	return len(found)
}
