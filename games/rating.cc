#include "games/rating.h"
